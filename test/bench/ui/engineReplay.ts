// The engine's side of `npm run bench:ui`, without VS Code: the same seeded positions, and for each
// the requests the editor features make (completion as the line is emptied and as its first two
// characters are typed, hover's and Find Related Code's symbol + retrieval, the live update of the
// typed buffer overlapping them as in the editor),
// sent through EngineClient to the engine in its own process exactly as the extension sends them.
// Reports each request kind's round trip and the engine's own time (p50/p95/max), first call per
// file apart. A benchmark for finding where the engine's share of the UI latency goes; it asserts
// nothing.
//   npm run compile && node out/test/bench/ui/engineReplay.js [--repo honojs_hono] [--positions 40] [--young MB] [--rounds N] [--no-overlap] [--worker dist/worker.js]
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { EngineClient, type CallTiming } from '../../../engine/src/rpc/client';
import type { EditorState } from '../../../engine/src/types';
import { drawTasks, percentile } from './places';

const ROOT = path.resolve(__dirname, '../../../..');

interface Args { repo: string; positions: number; seed: number; split: string; young: number | undefined; rounds: number; overlap: boolean; worker: string }

function parseArgs(argv: string[]): Args {
  const a: Args = { repo: 'honojs_hono', positions: 40, seed: 1, split: path.resolve(ROOT, '../shared/bench'), young: undefined, rounds: 1, overlap: true, worker: path.join(ROOT, 'dist', 'worker.js') };
  for (let i = 0; i < argv.length; i++) {
    const v = (): string => argv[++i];
    switch (argv[i]) {
      case '--repo': a.repo = v(); break;
      case '--positions': a.positions = Number(v()); break;
      case '--seed': a.seed = Number(v()); break;
      case '--split': a.split = path.resolve(v()); break;
      case '--young': a.young = Number(v()); break;
      case '--rounds': a.rounds = Number(v()); break;
      case '--no-overlap': a.overlap = false; break;
      case '--worker': a.worker = path.resolve(v()); break; // another build's dist/worker.js, to compare
      default: throw new Error(`unknown argument ${argv[i]}`);
    }
  }
  return a;
}

/** The editor's completion state with the cursor after `typed` on line `line` (editorState's windows). */
function stateAt(rel: string, lines: string[], line: number, typed: string): EditorState {
  const indent = /^\s*/.exec(lines[line] ?? '')?.[0] ?? '';
  const prefix = [...lines.slice(0, line), indent + typed].join('\n').slice(-16_000);
  const suffix = lines.slice(line + 1).join('\n').slice(0, 4_000);
  return { file: rel, language: rel.endsWith('.py') ? 'python' : 'typescript', prefix, suffix, line };
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const src = path.join(args.split, 'repos', args.repo);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'rr-replay-'));
  const root = path.join(work, 'ws');
  fs.cpSync(src, root, { recursive: true });
  const timings: Array<CallTiming & { kind: string; first: boolean }> = [];
  let kind = '';
  let first = false;
  const client = new EngineClient({
    workerPath: args.worker,
    init: { options: { root, indexDir: path.join(work, 'index'), modelDir: path.join(ROOT, 'models', 'reporecall-code'), grammarDir: path.join(ROOT, 'grammars') } },
    ...(args.young !== undefined ? { youngGenerationMb: args.young } : {}),
  });
  client.onTiming((t) => timings.push({ ...t, kind, first }));
  try {
    const t0 = performance.now();
    kind = '';
    await client.indexAll();
    console.log(`indexed ${args.repo} in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    await new Promise((r) => setTimeout(r, 2000));
    const tasks = drawTasks(args.split, args.repo, args.positions, args.seed);
    for (let round = 0; round < args.rounds; round++) {
      const seen = new Set<string>();
      for (const t of tasks) {
        const lines = fs.readFileSync(path.join(root, t.file), 'utf8').split('\n');
        first = !seen.has(t.file);
        seen.add(t.file);
        const code = lines[t.line].trim();
        kind = 'complete';
        for (const typed of ['', code.slice(0, 1), code.slice(0, 2)]) {
          await client.complete(stateAt(t.file, lines, t.line, typed));
          first = false;
        }
        // Hover and Find Related on the first identifier of the line above.
        const above = lines.slice(0, t.line).reverse().find((l) => /[A-Za-z_]\w{2,}/.test(l)) ?? '';
        const aboveLine = lines.lastIndexOf(above, t.line - 1);
        const m = /[A-Za-z_]\w{2,}/.exec(above.replace(/^\s*(const|let|var|return|await|def|async|export|import|from|if|for|while|class|function)\b/, (s) => ' '.repeat(s.length)));
        if (!m || aboveLine < 0) continue;
        // The extension re-indexes the buffer 750 ms after the last keystroke; bench:ui runs Find
        // Related Code about then, so the two overlap here as they do there (`--overlap`).
        const typedBuffer = [...lines.slice(0, t.line), (/^\s*/.exec(lines[t.line])?.[0] ?? '') + code.slice(0, 2), ...lines.slice(t.line + 1)].join('\n');
        kind = 'update';
        const update = args.overlap ? client.updateFile(t.file, typedBuffer) : Promise.resolve();
        kind = 'related';
        const related = await client.symbolRelated(t.file, aboveLine, m.index + 1, { options: { k: 60 } }, { content: typedBuffer });
        if (!related) await client.retrieve(stateAt(t.file, lines, t.line, ''), { k: 60 });
        kind = 'hover';
        await client.symbolRelated(t.file, aboveLine, m.index + 1, { context: above.trim(), options: { k: 16, compact: false, excerpt: 'head', maxLinesPerHit: 400 } }, { content: typedBuffer });
        await update;
        await client.updateFile(t.file, lines.join('\n')); // back to the file as it was
      }
    }
  } finally {
    kind = '';
    await client.close().catch(() => undefined);
    fs.rmSync(work, { recursive: true, force: true });
  }
  const rows: string[] = ['| request | n | rt p50 | rt p95 | rt max | engine p50 | engine p95 | engine max |', '|---|---|---|---|---|---|---|---|'];
  const groups = new Map<string, typeof timings>();
  for (const t of timings) {
    if (!t.kind) continue; // indexing and closing
    const key = t.method === 'updateFile' ? 'live update (overlapping)' : `${t.kind} ${t.method}${t.kind === 'complete' ? (t.first ? ' (first in file)' : ' (later)') : ''}`;
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key)!.push(t);
  }
  for (const [key, g] of groups) {
    const rt = g.map((t) => t.totalMs);
    const en = g.map((t) => t.engineMs);
    const f = (v: number | null): string => (v === null ? '-' : v.toFixed(1));
    rows.push(`| ${key} | ${g.length} | ${f(percentile(rt, 50))} | ${f(percentile(rt, 95))} | ${f(Math.max(...rt))} | ${f(percentile(en, 50))} | ${f(percentile(en, 95))} | ${f(Math.max(...en))} |`);
  }
  console.log(rows.join('\n'));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
