import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { unlistedSuites } from '../integration/index';
import { LATEST_VSCODE_SUITES, SUITES } from '../integration/suites';

// The extension-host suites have ONE list (test/integration/suites.ts), loaded by ONE entry
// (test/integration/index.ts) that both runners hand to VS Code: code-server in CI
// (scripts/vscode/test-integration.sh -> run-ext-tests.mjs) and desktop VS Code through
// @vscode/test-electron (npm run test:desktop -> test/desktop/runTests.ts).
const ROOT = path.resolve(__dirname, '../../..');
const ENTRY = 'out/test/integration/index.js';

describe('extension-host test runners', () => {
  it('every suite in test/integration is listed, and every listed suite exists', () => {
    assert.deepStrictEqual(unlistedSuites(path.join(ROOT, 'test/integration')), []);
    for (const s of [...SUITES, ...LATEST_VSCODE_SUITES]) assert.ok(fs.existsSync(path.join(ROOT, 'test/integration', `${s}.ts`)), `${s}.ts`);
  });

  it('an unlisted suite is reported', () => {
    const dir = fs.mkdtempSync(path.join(ROOT, 'out', 'suites-'));
    try {
      for (const f of ['extension.test.ts', 'brandNew.test.ts', 'helpers.ts']) fs.writeFileSync(path.join(dir, f), '');
      assert.deepStrictEqual(unlistedSuites(dir), ['brandNew.test']);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('code-server (both versions) and desktop VS Code run the same entry', () => {
    assert.ok(fs.readFileSync(path.join(ROOT, 'scripts/vscode/test-integration.sh'), 'utf8').includes(`$ROOT/${ENTRY}`));
    assert.ok(fs.readFileSync(path.join(ROOT, 'scripts/vscode/test-mcp-vscode.sh'), 'utf8').includes(`$ROOT/${ENTRY}`));
    assert.ok(fs.readFileSync(path.join(ROOT, 'test/desktop/runTests.ts'), 'utf8').includes(`'${ENTRY}'`));
  });
});
