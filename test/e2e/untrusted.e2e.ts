// An untrusted workspace whose .vscode/settings.json names a team index: code-server with workspace
// trust on (the extension-test harness always trusts its workspace, so this runs the workbench as a
// user opens a cloned repository, without answering the trust prompt). The extension activates in
// restricted mode and indexes locally; the server the repository named, a fake PostgreSQL on
// loopback, must see no connection at all.
// Usage: node untrusted.e2e.js RUN_DIR PORT WORKSPACE RESULTS_JSON (test-integration.sh runs it)
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { launchBrowser } from './browser';
import { startFakePostgres } from '../unit/fakePostgres';

const [run, port, ws, resultsPath] = process.argv.slice(2);
const HERE = path.resolve(__dirname, '../../../scripts/vscode');
const ROOT = path.resolve(__dirname, '../../..');

/** Every extension-host log line under the run's user data (the extension's output channel included). */
function logs(dir: string): string {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const e of fs.existsSync(d) ? fs.readdirSync(d, { withFileTypes: true }) : []) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.log')) out.push(fs.readFileSync(p, 'utf8'));
    }
  };
  walk(dir);
  return out.join('\n');
}

async function main(): Promise<void> {
  const passed: Array<{ title: string }> = [];
  const failed: Array<{ title: string; error: string }> = [];
  const fake = await startFakePostgres();
  fs.mkdirSync(path.join(ws, '.vscode'), { recursive: true });
  fs.writeFileSync(path.join(ws, '.vscode/settings.json'), JSON.stringify({ 'reporecall.teamIndex.url': `postgres://victim@127.0.0.1:${fake.port}/teamdb`, 'reporecall.teamIndex.repository': 'ws' }, null, 2));
  fs.mkdirSync(path.join(run, 'data/User'), { recursive: true });
  fs.writeFileSync(path.join(run, 'data/User/settings.json'), JSON.stringify({ 'security.workspace.trust.enabled': true, 'security.workspace.trust.startupPrompt': 'never', 'telemetry.telemetryLevel': 'off', 'workbench.startupEditor': 'none', 'update.mode': 'none', 'extensions.autoCheckUpdates': false }));
  const ext = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { publisher: string; name: string; version: string };
  fs.mkdirSync(path.join(run, 'exts'), { recursive: true });
  const link = path.join(run, 'exts', `${ext.publisher}.${ext.name}-${ext.version}`);
  if (!fs.existsSync(link)) fs.symlinkSync(ROOT, link);
  // A stand-in for GitHub Copilot, running in restricted mode too: no context provider may register with it.
  fs.cpSync(path.join(ROOT, 'test/fixtures/copilot-standin'), path.join(run, 'exts', 'github.copilot-0.0.1'), { recursive: true });
  execFileSync(path.join(HERE, 'start-code-server.sh'), [run, port, ws], { env: { ...process.env, WORKSPACE_TRUST: '1' }, stdio: 'inherit' });
  const browser = await launchBrowser('untrusted');
  try {
    const page = browser.page;
    await page.goto(`http://127.0.0.1:${port}/?folder=${encodeURIComponent(ws)}`);
    const deadline = Date.now() + 150_000;
    let text = '';
    while (Date.now() < deadline && !/indexed \d+ files/.test(text)) {
      await new Promise((r) => setTimeout(r, 1000));
      text = logs(path.join(run, 'data'));
    }
    // Time for a team connection to be tried, had one been configured (the engine connects as it opens).
    await new Promise((r) => setTimeout(r, 5000));
    text = logs(path.join(run, 'data'));
    const check = (title: string, ok: boolean, error: string): void => void (ok ? passed.push({ title }) : failed.push({ title, error }));
    check('untrusted workspace: the extension activates in restricted mode and indexes locally', /not trusted/.test(text) && /indexed \d+ files/.test(text), text.split('\n').filter((l) => /RepoRecall|reporecall|activated|indexed/.test(l)).slice(-8).join('\n') || 'no extension log');
    const standin = text.split('\n').filter((l) => l.includes('context providers registered:'));
    check('untrusted workspace: no context provider registers with Copilot (Copilot gets nothing)', standin.length > 0 && standin.every((l) => l.endsWith('none')) && !/registered the reporecall context provider/.test(text),
      standin.slice(-3).join('\n') || 'the Copilot stand-in logged nothing');
    check('untrusted workspace: no agent tool and no MCP server registered', /agent tools: not registered until the workspace is trusted/.test(text) && !/language-model tools registered/.test(text), text.split('\n').filter((l) => /agent tools/.test(l)).join('\n') || 'no agent tools log line');
    check('untrusted workspace: no connection to the team index its settings name', fake.connections === 0, `${fake.connections} connection(s), passwords ${JSON.stringify(fake.passwords)}`);
  } finally {
    await browser.close();
    execFileSync(path.join(HERE, 'stop-code-server.sh'), [run]);
    await fake.close();
  }
  for (const f of failed) console.log(`FAIL ${f.title}\n  ${f.error}`);
  for (const p of passed) console.log(`PASS ${p.title}`);
  fs.writeFileSync(resultsPath, JSON.stringify({ passed, failed }));
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
