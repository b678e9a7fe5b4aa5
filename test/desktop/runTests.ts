// `npm run test:desktop`: the extension-host suites (test/integration/suites.ts, through the same
// index.ts entry code-server runs in CI) in a desktop VS Code, through @vscode/test-electron.
// For contributors with internet access: VS Code is downloaded once into .vscode-test/ (or
// REPORECALL_VSCODE_EXECUTABLE names an installed one). Where neither is possible (offline, like
// the machines CI runs on) it fails with the reason; CI runs the same suites in code-server
// (`npm run test:integration`).
// Env: REPORECALL_VSCODE_EXECUTABLE (a VS Code binary, no download), REPORECALL_VSCODE_VERSION
// (default: the newest release that satisfies package.json's engines.vscode), KEEP=1 (keep the
// temporary workspace and profile).
// The last line is `N passed, M failed`; the exit status is non-zero when anything failed.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { downloadAndUnzipVSCode, runTests } from '@vscode/test-electron';

const ROOT = path.resolve(__dirname, '../../..');
const ENTRY = path.join(ROOT, 'out/test/integration/index.js');
const CACHE = path.join(ROOT, '.vscode-test');

/** The same workbench settings start-code-server.sh gives code-server. */
const SETTINGS = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'security.workspace.trust.enabled': false,
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'editor.inlineSuggest.enabled': true,
  'editor.quickSuggestions': { other: false, comments: false, strings: false },
  'editor.suggestOnTriggerCharacters': false,
  'editor.hover.delay': 150,
  'files.autoSave': 'off',
  'files.hotExit': 'off',
  'chat.commandCenter.enabled': false,
};

async function vscodeExecutable(): Promise<string> {
  const given = process.env.REPORECALL_VSCODE_EXECUTABLE;
  if (given) {
    if (!fs.existsSync(given)) throw new Error(`REPORECALL_VSCODE_EXECUTABLE=${given} does not exist`);
    return given;
  }
  try {
    return await downloadAndUnzipVSCode({
      version: process.env.REPORECALL_VSCODE_VERSION,
      cachePath: CACHE,
      extensionDevelopmentPath: ROOT,
      timeout: 30_000,
    });
  } catch (e) {
    throw new Error(
      `test:desktop could not get a desktop VS Code: ${e instanceof Error ? e.message : String(e)}\n` +
      '  It downloads one from update.code.visualstudio.com into .vscode-test/ (needs internet access),\n' +
      '  or set REPORECALL_VSCODE_EXECUTABLE to an installed VS Code binary.\n' +
      '  Offline, run the same suites in code-server instead: npm run test:integration',
      { cause: e },
    );
  }
}

async function main(): Promise<number> {
  if (!fs.existsSync(ENTRY)) throw new Error(`${ENTRY} is missing: npm run test:desktop compiles it first`);
  if (!fs.existsSync(path.join(ROOT, 'dist/extension.js'))) throw new Error('dist/ is missing: npm run test:desktop builds it first');
  if (!fs.existsSync(path.join(ROOT, 'grammars/wasm/tree-sitter.wasm'))) throw new Error('grammars/wasm/ is missing: npm run grammars');
  const executable = await vscodeExecutable();

  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'reporecall-desktop-'));
  const ws = path.join(work, 'ws');
  fs.cpSync(path.join(ROOT, 'test/fixtures/workspace'), ws, { recursive: true });
  fs.mkdirSync(path.join(work, 'data/User'), { recursive: true });
  // The Copilot stand-in (copilot.test) loads as a second development extension, its ghost text off until that suite turns it on.
  fs.writeFileSync(path.join(work, 'data/User/settings.json'), JSON.stringify({ ...SETTINGS, 'github.copilot.enable': { '*': false } }, null, 2));
  const results = path.join(work, 'results.json');
  let code: number;
  try {
    code = await runTests({
      vscodeExecutablePath: executable,
      extensionDevelopmentPath: [ROOT, path.join(ROOT, 'test/fixtures/copilot-standin')],
      extensionTestsPath: ENTRY,
      extensionTestsEnv: { REPORECALL_TEST_RESULTS: results },
      launchArgs: [
        ws,
        `--user-data-dir=${path.join(work, 'data')}`,
        `--extensions-dir=${path.join(work, 'exts')}`,
        '--disable-extensions',
        '--disable-workspace-trust',
        '--skip-welcome',
        '--skip-release-notes',
        '--disable-telemetry',
      ],
    });
  } catch (e) {
    console.error(`VS Code exited abnormally: ${e instanceof Error ? e.message : String(e)}`);
    code = 1;
  }
  let pass = 0;
  let fail: number;
  try {
    const r = JSON.parse(fs.readFileSync(results, 'utf8')) as { passed: string[]; failed: Array<{ title: string; error: string }> };
    pass = r.passed.length;
    fail = r.failed.length;
    for (const f of r.failed) console.log(`FAILED ${f.title}\n  ${f.error.split('\n').slice(0, 3).join('\n  ')}`);
  } catch {
    fail = 1;
    console.log('FAILED: the suites did not report results');
  }
  if (process.env.KEEP === '1') console.log(`workspace and profile kept in ${work}`);
  else fs.rmSync(work, { recursive: true, force: true });
  console.log(`${pass} passed, ${fail} failed`);
  return code === 0 && fail === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(e instanceof Error ? e.message : String(e));
    console.log('0 passed, 1 failed');
    process.exit(1);
  },
);
