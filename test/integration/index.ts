// Mocha entry loaded by the VS Code extension host (the `extensionTestsPath` contract of
// @vscode/test-electron / test-web): run() resolves when every suite passed.
// Writes a JSON summary to $REPORECALL_TEST_RESULTS when set (the runner totals it).
import * as fs from 'node:fs';
import * as path from 'node:path';
import Mocha from 'mocha';

export function run(): Promise<void> {
  const mocha = new Mocha({ ui: 'bdd', color: false, timeout: 120_000, reporter: 'spec' });
  for (const f of fs.readdirSync(__dirname).sort()) if (f.endsWith('.test.js')) mocha.addFile(path.join(__dirname, f));
  const passed: string[] = [];
  const failed: Array<{ title: string; error: string }> = [];
  return new Promise((resolve, reject) => {
    const runner = mocha.run((failures) => {
      const out = process.env.REPORECALL_TEST_RESULTS;
      if (out) fs.writeFileSync(out, JSON.stringify({ passed, failed }, null, 2));
      console.log(`integration: ${passed.length} passed, ${failed.length} failed`);
      if (failures) reject(new Error(`${failures} test(s) failed`));
      else resolve();
    });
    runner.on('pass', (t) => passed.push(t.fullTitle()));
    runner.on('fail', (t, err: Error) => failed.push({ title: t.fullTitle(), error: String(err?.stack ?? err) }));
  });
}
