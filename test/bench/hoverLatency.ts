// The engine's hover request in process (issue 29: hover provider p95 ≤ 100 ms in bench:ui): for
// bench:ui's seeded positions (ui/places.ts drawTasks), the hover's exact request, symbolRelated on
// the first identifier of the line above the task's line, with the buffer as typed there (the line
// emptied and two characters typed). Per repository, the request's p50/p95, its first call in a file
// apart, and the same request while the typed buffer's live update runs beside it (as in the
// editor, where the update starts 750 ms after the last keystroke). No VS Code and no engine
// process: where the engine's own time goes (run it under `node --cpu-prof` for a profile). It
// asserts nothing.
//   npm run bench:hover -- [--split ../shared/bench] [--repos honojs_hono,huggingface_evaluate] [--positions 40] [--rounds 2] [--out FILE.json] [--profile PREFIX]
import * as fs from 'node:fs';
import { Session } from 'node:inspector/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { Engine } from '../../engine/src/engine';
import { drawTasks, percentile } from './ui/places';

const ROOT = path.resolve(__dirname, '../../..');

interface Args { split: string; repos: string[]; positions: number; seed: number; rounds: number; out?: string; profile?: string }

function parseArgs(argv: string[]): Args {
  const a: Args = { split: path.resolve(ROOT, '../shared/bench'), repos: ['honojs_hono', 'huggingface_evaluate'], positions: 40, seed: 1, rounds: 2 };
  for (let i = 0; i < argv.length; i++) {
    const v = (): string => argv[++i];
    switch (argv[i]) {
      case '--split': a.split = path.resolve(v()); break;
      case '--repos': a.repos = v().split(',').filter(Boolean); break;
      case '--positions': a.positions = Number(v()); break;
      case '--seed': a.seed = Number(v()); break;
      case '--rounds': a.rounds = Number(v()); break;
      case '--out': a.out = path.resolve(v()); break;
      case '--profile': a.profile = path.resolve(v()); break; // a .cpuprofile per repository of the hovers alone (not the build)
      default: throw new Error(`unknown argument ${argv[i]} (see the header of test/bench/hoverLatency.ts)`);
    }
  }
  return a;
}

interface Hover { file: string; line: number; character: number; context: string; typed: string; original: string }

/** bench:ui's hover places: the first identifier (3+ characters, past a leading keyword) of the nearest line above each task's line. */
function hoverPlaces(split: string, repo: string, root: string, n: number, seed: number): Hover[] {
  const out: Hover[] = [];
  for (const t of drawTasks(split, repo, n, seed)) {
    const original = fs.readFileSync(path.join(root, t.file), 'utf8');
    const lines = original.split('\n');
    const above = lines.slice(0, t.line).reverse().find((l) => /[A-Za-z_]\w{2,}/.test(l)) ?? '';
    const line = lines.lastIndexOf(above, t.line - 1);
    const m = /[A-Za-z_]\w{2,}/.exec(above.replace(/^\s*(const|let|var|return|await|def|async|export|import|from|if|for|while|class|function)\b/, (s) => ' '.repeat(s.length)));
    if (!m || line < 0) continue;
    const code = lines[t.line].trim();
    const typed = [...lines.slice(0, t.line), (/^\s*/.exec(lines[t.line])?.[0] ?? '') + code.slice(0, 2), ...lines.slice(t.line + 1)].join('\n');
    out.push({ file: t.file, line, character: m.index + 1, context: above.trim(), typed, original });
  }
  return out;
}

/** The hover's request as extension/src/features/hover.ts sends it (default reporecall.hover.maxSnippets 3). */
function hoverRequest(engine: Engine, h: Hover): Promise<unknown> {
  return engine.symbolRelated(h.file, h.line, h.character, { context: h.context, options: { k: 16, compact: false, excerpt: 'head', maxLinesPerHit: 400 } }, h.typed);
}

async function timed(f: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await f();
  return performance.now() - t0;
}

type Stats = { n: number; p50: number | null; p95: number | null; max: number | null };
const stats = (xs: number[]): Stats => ({ n: xs.length, p50: round(percentile(xs, 50)), p95: round(percentile(xs, 95)), max: xs.length ? round(Math.max(...xs)) : null });
const round = (x: number | null): number | null => (x === null ? null : Math.round(x * 10) / 10);

async function benchRepo(args: Args, repo: string): Promise<Record<string, Stats | number>> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'rr-hover-'));
  const root = path.join(work, 'ws');
  fs.cpSync(path.join(args.split, 'repos', repo), root, { recursive: true });
  const engine = await Engine.open({ root, indexDir: path.join(work, 'index'), modelDir: path.join(ROOT, 'models', 'reporecall-code') });
  try {
    const t0 = performance.now();
    await engine.indexAll();
    const indexS = (performance.now() - t0) / 1000;
    await engine.complete({ file: '', prefix: 'import x from "y";\nexport function f() {\n  return ', line: 2 }); // the engine process's warm-up
    const places = hoverPlaces(args.split, repo, root, args.positions, args.seed);
    const first: number[] = [];
    const later: number[] = [];
    const overlapped: number[] = [];
    const session = args.profile ? new Session() : undefined;
    if (session) {
      session.connect();
      await session.post('Profiler.enable');
      await session.post('Profiler.start');
    }
    for (let round = 0; round < args.rounds; round++) {
      const seen = new Set<string>();
      for (const h of places) {
        (seen.has(h.file) || round > 0 ? later : first).push(await timed(() => hoverRequest(engine, h)));
        seen.add(h.file);
        later.push(await timed(() => hoverRequest(engine, h))); // the mouse moving within the word
        // The typed buffer's live update beside the hover, then the file as it was.
        const update = engine.updateFile(h.file, h.typed);
        overlapped.push(await timed(() => hoverRequest(engine, h)));
        await update;
        await engine.updateFile(h.file, h.original);
      }
    }
    if (session) {
      const { profile } = await session.post('Profiler.stop');
      fs.writeFileSync(`${args.profile}-${repo}.cpuprofile`, JSON.stringify(profile));
      session.disconnect();
    }
    const all = [...first, ...later];
    return { positions: places.length, index_s: Math.round(indexS * 10) / 10, all: stats(all), first_in_file: stats(first), later: stats(later), during_live_update: stats(overlapped) };
  } finally {
    await engine.close();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const result: Record<string, unknown> = {};
  for (const repo of args.repos) {
    const r = await benchRepo(args, repo);
    result[repo] = r;
    const line = (k: string): string => {
      const s = r[k] as Stats;
      return `${k} n ${s.n} p50 ${s.p50} p95 ${s.p95} max ${s.max}`;
    };
    console.log(`${repo} (${r.positions} hovers, indexed in ${r.index_s} s): ${['all', 'first_in_file', 'later', 'during_live_update'].map(line).join(' | ')} (ms)`);
  }
  result.meta = { date: new Date().toISOString(), host: `${os.cpus().length} cores, load ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}`, positions: args.positions, seed: args.seed, rounds: args.rounds };
  if (args.out) fs.writeFileSync(args.out, `${JSON.stringify(result, null, 1)}\n`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
