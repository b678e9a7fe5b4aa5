// Latency of the agent tool search_code (engine/src/agentTools/searchCode.ts) on the DEV
// repositories: per repository, a clean index (dense on, the shipped model), then ~100 queries an
// agent would send: 70 sentences from the repository's own comments and docstrings (natural
// language) and 30 lines of code that call something, taken at even spacing. Timed in process,
// as the MCP server and the engine process run it (stdio adds a round trip).
// Usage: npm run compile && node out/test/bench/searchCodeLatency.js [--split ../shared/bench] [--out FILE.json]
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { searchCode } from '../../engine/src/agentTools/searchCode';
import { Engine } from '../../engine/src/engine';

const WORDS = 30;
const NATURAL = 70;
const CODE = 30;

function pct(values: number[], p: number): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((s.length * p) / 100) - 1)] ?? NaN;
}

function sourceFiles(root: string, dir = ''): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(path.join(root, dir), { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const rel = path.posix.join(dir, e.name);
    if (e.isDirectory() && !e.name.startsWith('.') && e.name !== 'node_modules') out.push(...sourceFiles(root, rel));
    else if (/\.(py|tsx?|mts|cts)$/.test(e.name)) out.push(rel);
  }
  return out;
}

/** `n` items of `all` at even spacing. */
function spread<T>(all: T[], n: number): T[] {
  if (all.length <= n) return all;
  return Array.from({ length: n }, (_, i) => all[Math.floor((i * all.length) / n)]);
}

/** Comment and docstring sentences (5+ words) and lines of code with a call, from the repository itself. */
function queries(root: string): string[] {
  const prose: string[] = [];
  const code: string[] = [];
  for (const rel of sourceFiles(root)) {
    for (const line of fs.readFileSync(path.join(root, rel), 'utf8').split('\n')) {
      const t = line.trim();
      const comment = /^(#|\/\/|\/?\*+|""")\s*(.*)$/.exec(t);
      if (comment) {
        const words = comment[2].replace(/"""|\*\/$/g, '').split(/\s+/).filter((w) => /[a-z]/i.test(w));
        if (words.length >= 5) prose.push(words.slice(0, WORDS).join(' '));
      } else if (/\b[A-Za-z_]\w{3,}\(/.test(t) && t.length >= 20 && t.length <= 120) code.push(t);
    }
  }
  return [...spread(prose, NATURAL), ...spread(code, CODE)];
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { split: { type: 'string' }, out: { type: 'string' } } });
  const split = path.resolve(values.split ?? '../shared/bench');
  const repos = fs.readdirSync(path.join(split, 'repos')).sort();
  const perRepo: Record<string, { n: number; p50: number; p95: number; max: number; chunks: number }> = {};
  const all: number[] = [];
  for (const repo of repos) {
    const root = path.join(split, 'repos', repo);
    const indexDir = fs.mkdtempSync(path.join(os.tmpdir(), `rr-search-code-${repo}-`));
    const engine = await Engine.open({ root, indexDir });
    try {
      const stats = await engine.indexAll();
      const qs = queries(root);
      for (const q of qs.slice(0, 5)) await searchCode(engine, { query: q }); // first-run costs, as the engine process warms up
      const times: number[] = [];
      for (const q of qs) {
        const t0 = performance.now();
        await searchCode(engine, { query: q });
        times.push(performance.now() - t0);
      }
      all.push(...times);
      perRepo[repo] = { n: times.length, p50: +pct(times, 50).toFixed(1), p95: +pct(times, 95).toFixed(1), max: +Math.max(...times).toFixed(1), chunks: stats.chunks };
      console.log(`${repo}: ${stats.chunks} chunks, n=${times.length} p50 ${perRepo[repo].p50} ms, p95 ${perRepo[repo].p95} ms, max ${perRepo[repo].max} ms`);
    } finally {
      await engine.close();
      fs.rmSync(indexDir, { recursive: true, force: true });
    }
  }
  const result = { split, when: new Date().toISOString(), cpus: os.cpus().length, all: { n: all.length, p50: +pct(all, 50).toFixed(1), p95: +pct(all, 95).toFixed(1) }, perRepo };
  console.log(`all: n=${all.length} p50 ${result.all.p50} ms, p95 ${result.all.p95} ms`);
  if (values.out) fs.writeFileSync(values.out, JSON.stringify(result, null, 1) + '\n');
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
