// Offline for real: the engine process as the editor starts it (EngineClient forks rpc/worker.ts)
// indexes a real repository with the shipped model and is queried and edited for over 60 s under
// strace. Any connection or datagram to an address other than loopback (DNS included: a resolver
// socket, nscd, netlink address queries) fails the test, and so does any file written outside the
// index folder: the engine gets a private HOME and TMPDIR, which must end as empty as they began.
// onnxruntime-node 1.30 without ORT_DISABLE_TELEMETRY looks up mobile.events.data.microsoft.com
// about 11 s after loading a model and writes ~/.cache/Microsoft/... and $TMPDIR/mat-debug-<pid>.log.
import * as assert from 'node:assert';
import { execFile, execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { tempDir } from './tempDir';

const ROOT = path.resolve(__dirname, '../../..');
/** Over the 60 s the issue asks for: the runtime's first telemetry attempt came ~11 s after loading the model. */
const RUN_MS = 65_000;

/** Network attempts in an strace log that do not stay on this machine. */
export function networkFindings(trace: string): string[] {
  const out: string[] = [];
  for (const line of trace.split('\n')) {
    if (!/\b(connect|sendto|sendmsg)\(/.test(line)) continue;
    const v4 = [...line.matchAll(/inet_addr\("([^"]+)"\)/g)].map((m) => m[1]);
    const v6 = [...line.matchAll(/inet_pton\(AF_INET6, "([^"]+)"/g)].map((m) => m[1]);
    const remote = v4.some((a) => !a.startsWith('127.')) || v6.some((a) => a !== '::1' && a !== '::ffff:127.0.0.1');
    // glibc's resolver asks nscd or systemd-resolved first, and netlink for the addresses it may use.
    const resolver = /sun_path="[^"]*(nscd|resolve)[^"]*"/.test(line) || /AF_NETLINK/.test(line);
    if (remote || resolver) out.push(line.trim());
  }
  return out;
}

/** Files opened for writing outside `allowed` (directories, or files by prefix) in an strace log. */
export function writeFindings(trace: string, allowed: string[]): string[] {
  const out: string[] = [];
  for (const line of trace.split('\n')) {
    const m = /\b(?:open|openat|openat2|creat)\((?:AT_FDCWD, |\d+<[^>]*>, )?"([^"]+)", ([A-Z_|]+)/.exec(line) ?? /\bcreat\("([^"]+)"/.exec(line);
    if (!m) continue;
    const flags = m[2] ?? 'O_CREAT';
    if (!/O_WRONLY|O_RDWR|O_CREAT|O_TRUNC|O_APPEND/.test(flags)) continue;
    const file = path.resolve(m[1]);
    if (file === '/dev/null' || allowed.some((a) => file === a || file.startsWith(a.endsWith('/') ? a : `${a}/`) || (a.endsWith('*') && file.startsWith(a.slice(0, -1))))) continue;
    out.push(line.trim());
  }
  return out;
}

/** Every file and folder under `dir`, relative. */
function entries(dir: string): string[] {
  return fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort();
}

function hasStrace(): boolean {
  try {
    execFileSync('strace', ['-V'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

describe('offline: the engine process makes no network attempt and writes only its index', function () {
  this.timeout(RUN_MS + 240_000);

  it('the trace checkers flag a DNS lookup, a remote connection and a stray file, and pass loopback and the index', () => {
    const trace = [
      '9061  connect(23, {sa_family=AF_INET, sin_port=htons(53), sin_addr=inet_addr("10.255.255.53")}, 16) = 0',
      '9062  sendto(24, {{nlmsg_len=20, nlmsg_type=RTM_GETADDR}}, 20, 0, {sa_family=AF_NETLINK, nl_pid=0, nl_groups=00000000}, 12) = 20',
      '9063  connect(25, {sa_family=AF_UNIX, sun_path="/var/run/nscd/socket"}, 110) = -1 ENOENT',
      '9064  connect(26, {sa_family=AF_INET6, sin6_port=htons(443), sin6_flowinfo=htonl(0), inet_pton(AF_INET6, "2603:1030::1", &sin6_addr), sin6_scope_id=0}, 28) = -1',
      '9065  connect(27, {sa_family=AF_INET, sin_port=htons(5432), sin_addr=inet_addr("127.0.0.1")}, 16) = 0',
      '9066  openat(AT_FDCWD, "/h/.cache/Microsoft/DeveloperTools/.onnxruntime/deviceid", O_WRONLY|O_CREAT|O_TRUNC, 0644) = 30',
      '9067  openat(AT_FDCWD, "/idx/manifest.json.tmp", O_WRONLY|O_CREAT|O_TRUNC|O_CLOEXEC, 0666) = 31',
      '9068  openat(AT_FDCWD, "/h/.cache/Microsoft/x", O_RDONLY|O_CLOEXEC) = 32',
      '9069  openat(AT_FDCWD, "/t/reporecall-merge-1-a.bin", O_RDWR|O_CREAT|O_TRUNC|O_CLOEXEC, 0600) = 33',
      '9070  openat(AT_FDCWD, "/t/mat-debug-9066.log", O_WRONLY|O_CREAT|O_APPEND <unfinished ...>',
    ].join('\n');
    assert.deepStrictEqual(networkFindings(trace).map((l) => l.split(' ')[0]), ['9061', '9062', '9063', '9064']);
    assert.deepStrictEqual(writeFindings(trace, ['/idx', '/t/reporecall-*']).map((l) => l.split(' ')[0]), ['9066', '9070']);
  });

  it(`indexing with the shipped model, then ${RUN_MS / 1000} s of edits and queries: no network attempt, nothing written outside the index`, async function () {
    if (!hasStrace()) throw new Error('strace is not installed: scripts/test.sh installs it (apt-get install strace)');
    const tmp = tempDir('rr-offline-');
    try {
      const home = path.join(tmp, 'home');
      const tmpdir = path.join(tmp, 'tmp');
      const indexDir = path.join(tmp, 'index');
      const ws = path.join(tmp, 'ws');
      for (const d of [home, tmpdir]) fs.mkdirSync(d);
      fs.cpSync(path.join(ROOT, 'engine/src'), ws, { recursive: true });
      const traceFile = path.join(tmp, 'trace.txt');
      const driver = path.join(ROOT, 'out/test/unit/offline.driver.js');
      // Only what a login gives: no variable of this test process (which may have loaded the runtime) leaks in.
      const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, TMPDIR: tmpdir, LANG: 'C.UTF-8' };
      const args = ['-f', '-qq', '-s', '512', '-e', 'trace=connect,sendto,sendmsg,open,openat,openat2,creat', '-o', traceFile, process.execPath, driver, ws, indexDir, String(RUN_MS)];
      const stdout = await new Promise<string>((resolve, reject) =>
        execFile('strace', args, { env, maxBuffer: 16 << 20 }, (err, out, errOut) => (err ? reject(new Error(`${err.message}\n${errOut}`)) : resolve(out))),
      );
      const run = JSON.parse(stdout.trim().split('\n').pop()!) as { files: number; modelDir: string | null; modelWarning: string | null; queries: number; edits: number };
      // The runtime was loaded and used: otherwise nothing here could have sent anything.
      assert.ok(run.modelDir && run.modelWarning === null, JSON.stringify(run));
      assert.ok(run.files > 50 && run.queries > 20 && run.edits > 20, JSON.stringify(run));

      const trace = fs.readFileSync(traceFile, 'utf8');
      assert.deepStrictEqual(networkFindings(trace).slice(0, 10), [], 'network attempts other than loopback');
      assert.deepStrictEqual(writeFindings(trace, [indexDir, path.join(tmpdir, 'reporecall-*')]).slice(0, 10), [], 'files opened for writing outside the index');
      assert.deepStrictEqual(entries(home), [], 'files left in the private HOME');
      assert.deepStrictEqual(entries(tmpdir), [], 'files left in the private TMPDIR');
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });
});
