// Latency of the editor surface's engine calls (hover, Find Related Code): symbolAt + retrieve for
// names taken from the repository, with the index idle and while a build is embedding (what a
// user sees while the status bar still counts).
// Usage: npm run compile && node out/test/bench/surfaceLatency.js DIR [--dense off]
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Engine } from '../../engine/src/engine';

function pct(values: number[], p: number): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((s.length * p) / 100) - 1)] ?? NaN;
}

function summary(label: string, v: number[]): string {
  return `${label}: n=${v.length} p50 ${pct(v, 50).toFixed(1)} ms, p95 ${pct(v, 95).toFixed(1)} ms, max ${Math.max(...v).toFixed(1)} ms`;
}

/** Names the repository defines, and a position where each is used. */
function probes(root: string, files: string[], max: number): Array<{ rel: string; line: number; character: number; name: string }> {
  const out: Array<{ rel: string; line: number; character: number; name: string }> = [];
  for (const rel of files) {
    const lines = fs.readFileSync(path.join(root, rel), 'utf8').split('\n');
    lines.forEach((l, i) => {
      const m = /\b([A-Za-z_]\w{4,})\(/.exec(l);
      if (m && !/^\s*(def|function|class|#|\/\/)/.test(l) && out.length < max) out.push({ rel, line: i, character: m.index + 1, name: m[1] });
    });
    if (out.length >= max) break;
  }
  return out;
}

async function surfaceCall(engine: Engine, p: { rel: string; line: number; character: number }): Promise<number> {
  const t0 = performance.now();
  const s = await engine.symbolAt(p.rel, p.line, p.character);
  await engine.retrieve(s ? s.name : `${p.rel}`, { k: 60 });
  return performance.now() - t0;
}

async function main(): Promise<void> {
  const [dir, ...rest] = process.argv.slice(2);
  if (!dir) throw new Error('usage: node out/test/bench/surfaceLatency.js DIR [--dense off]');
  const dense = !(rest[0] === '--dense' && rest[1] === 'off');
  const indexDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rr-surface-'));
  try {
    const engine = await Engine.open({ root: path.resolve(dir), indexDir, dense });
    // While the first build embeds: the calls share the engine's thread and its model with the build.
    const during: number[] = [];
    let embedding = false;
    const build = engine.indexAll((p) => (embedding = p.phase === 'embed'));
    const files: string[] = [];
    const walk = (d: string): void => {
      for (const e of fs.readdirSync(path.join(dir, d), { withFileTypes: true })) {
        const rel = path.posix.join(d, e.name);
        if (e.isDirectory() && !e.name.startsWith('.') && e.name !== 'node_modules') walk(rel);
        else if (/\.(py|ts)$/.test(e.name)) files.push(rel);
      }
    };
    walk('');
    const ps = probes(dir, files, 40);
    let done = false;
    void build.then(() => (done = true));
    while (!done) {
      if (embedding) during.push(await surfaceCall(engine, ps[during.length % ps.length]));
      else await new Promise((r) => setTimeout(r, 50));
    }
    const stats = await build;
    const idle: number[] = [];
    for (let round = 0; round < 3; round++) for (const p of ps) idle.push(await surfaceCall(engine, p));
    console.log(`${dir}: ${stats.files} files, ${stats.chunks} chunks, dense ${dense ? 'on' : 'off'}`);
    console.log(summary('symbolAt + retrieve(k=60), index idle', idle));
    if (during.length) console.log(summary('symbolAt + retrieve(k=60), while the build embeds', during));
    await engine.close();
  } finally {
    fs.rmSync(indexDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
