// The UI benchmark's code-server (run.ts): a copy of the repository with the extension and the
// floor extension linked in, started and stopped by scripts/vscode, and its user settings.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '../../../..');
const HERE = path.join(ROOT, 'scripts', 'vscode');

export function startServer(run: string, port: number, ws: string, env: NodeJS.ProcessEnv): void {
  const r = spawnSync(path.join(HERE, 'start-code-server.sh'), [run, String(port), ws], { env, stdio: 'inherit' });
  if (r.status !== 0) throw new Error('code-server did not start');
}
export function stopServer(run: string): void {
  spawnSync(path.join(HERE, 'stop-code-server.sh'), [run], { stdio: 'inherit' });
}

/** A copy of the repository, the run folder with the extension and the floor extension linked in, and the server's environment. */
export function prepareWorkspace(args: { repo: string; port: number }, repoDir: string): { work: string; run: string; ws: string; timingsFile: string; env: NodeJS.ProcessEnv; url: string } {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'reporecall-bench-ui-'));
  const run = path.join(work, 'run');
  const ws = path.join(work, args.repo);
  fs.cpSync(repoDir, ws, { recursive: true });
  const extId = (() => {
    const p = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { publisher: string; name: string; version: string };
    return `${p.publisher}.${p.name}-${p.version}`;
  })();
  fs.mkdirSync(path.join(run, 'exts'), { recursive: true });
  fs.symlinkSync(ROOT, path.join(run, 'exts', extId));
  // The floor: a provider that answers at once (switched on only for the floor pass).
  fs.symlinkSync(path.join(ROOT, 'test', 'bench', 'ui', 'floor-extension'), path.join(run, 'exts', 'reporecall-bench.ghost-floor-0.0.1'));
  const timingsFile = path.join(work, 'timings.jsonl');
  const env = { ...process.env, REPORECALL_TIMINGS_FILE: timingsFile };
  const url = `http://127.0.0.1:${args.port}/?folder=${ws}`;
  return { work, run, ws, timingsFile, env, url };
}

/** Changes one user setting of the running code-server (it watches the file). */
export function setUserSetting(run: string, key: string, value: unknown): void {
  const file = path.join(run, 'data', 'User', 'settings.json');
  const settings = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
  settings[key] = value;
  fs.writeFileSync(file, JSON.stringify(settings, null, 2));
}
