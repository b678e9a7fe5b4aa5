// `node --expose-gc out/test/bench/tokenizer.js [--model models/reporecall-code] [--rounds 5] [--out F.json]`
// The lean WordPiece tokenizer vs @huggingface/tokenizers on the shipped model:
// - memory: each implementation in its own fresh child process — RSS / heap / external after gc,
//   before and after OnnxEmbedder.load (the tokenizer is the only difference between the two);
// - speed: ms per ~200-token chunk of real code (this repository's engine sources cut into
//   200-token windows), both implementations side by side in one process, alternating rounds.
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { OnnxEmbedder } from '../../engine/src/embed';
import { TextTokenizer } from '../../engine/src/embed/textTokenizer';

const arg = (name: string, dflt: string): string => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : dflt;
};
const mb = (b: number) => +(b / 1048576).toFixed(1);
const ROOT = path.resolve(__dirname, '../../..');

function gcTwice(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with node --expose-gc');
  gc();
  gc();
}

function memory(): { rssMB: number; heapMB: number; externalMB: number } {
  gcTwice();
  const m = process.memoryUsage();
  return { rssMB: mb(m.rss), heapMB: mb(m.heapUsed), externalMB: mb(m.external) };
}

/** Child mode: load the embedder with one implementation and print memory before/after as JSON. */
async function memoryChild(modelDir: string, library: boolean): Promise<void> {
  const before = memory();
  const embedder = await OnnxEmbedder.load(modelDir, { libraryTokenizer: library });
  await embedder.embed(['warm up the session once']);
  const after = memory();
  process.stdout.write(JSON.stringify({ before, after }) + '\n');
  await embedder.dispose();
}

function engineSources(dir: string, out: string[] = []): string[] {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) engineSources(p, out);
    else if (e.name.endsWith('.ts')) out.push(p);
  }
  return out;
}

function percentile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

async function main(): Promise<void> {
  const modelDir = path.resolve(arg('model', path.join(ROOT, 'models/reporecall-code')));
  const child = arg('child', '');
  if (child) return memoryChild(modelDir, child === 'library');

  const runChild = (impl: string) =>
    JSON.parse(execFileSync(process.execPath, ['--expose-gc', __filename, '--child', impl, '--model', modelDir], { encoding: 'utf8' })) as {
      before: ReturnType<typeof memory>;
      after: ReturnType<typeof memory>;
    };
  // Alternate and repeat: RSS of a fresh process varies by a few MB run to run.
  const mem: Record<string, Array<ReturnType<typeof runChild>>> = { library: [], lean: [] };
  for (let i = 0; i < 3; i++) for (const impl of ['library', 'lean']) mem[impl].push(runChild(impl));

  const tokenizerJson = JSON.parse(fs.readFileSync(path.join(modelDir, 'tokenizer.json'), 'utf8')) as object;
  const config = fs.existsSync(path.join(modelDir, 'tokenizer_config.json'))
    ? (JSON.parse(fs.readFileSync(path.join(modelDir, 'tokenizer_config.json'), 'utf8')) as object)
    : {};
  const lean = new TextTokenizer(tokenizerJson, config, 'tokenizer.json', 100_000);
  const lib = new TextTokenizer(tokenizerJson, config, 'tokenizer.json', 100_000, true);
  if (lean.implementation !== 'wordpiece') throw new Error(`${modelDir} does not take the lean path`);
  // ~200-token chunks: cut each source into line windows and keep those of 180-220 tokens.
  const chunks: string[] = [];
  for (const file of engineSources(path.join(ROOT, 'engine/src'))) {
    const lines = fs.readFileSync(file, 'utf8').split('\n');
    let at = 0;
    while (at < lines.length) {
      let end = at + 1;
      while (end < lines.length && lib.encode(lines.slice(at, end).join('\n')).ids.length < 200) end++;
      const text = lines.slice(at, end).join('\n');
      const n = lib.encode(text).ids.length;
      if (n >= 180 && n <= 220) chunks.push(text);
      at = end;
    }
  }
  const rounds = Number(arg('rounds', '5'));
  const perChunk: Record<string, number[]> = { library: [], lean: [] };
  for (let r = 0; r < rounds; r++) {
    for (const [name, tok] of [['library', lib], ['lean', lean]] as const) {
      const t0 = process.hrtime.bigint();
      for (const c of chunks) tok.encode(c);
      perChunk[name].push(Number(process.hrtime.bigint() - t0) / 1e6 / chunks.length);
    }
  }
  const summary = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    return { median: +percentile(s, 0.5).toFixed(4), min: +s[0].toFixed(4), max: +s[s.length - 1].toFixed(4) };
  };
  const memSummary = (runs: Array<ReturnType<typeof runChild>>) => ({
    rssAfterMB: runs.map((r) => r.after.rssMB),
    heapAfterMB: runs.map((r) => r.after.heapMB),
    rssDeltaMB: runs.map((r) => +(r.after.rssMB - r.before.rssMB).toFixed(1)),
    heapDeltaMB: runs.map((r) => +(r.after.heapMB - r.before.heapMB).toFixed(1)),
    externalAfterMB: runs.map((r) => r.after.externalMB),
  });
  const result = {
    model: modelDir,
    memory: { library: memSummary(mem.library), lean: memSummary(mem.lean) },
    speed: { chunks: chunks.length, rounds, msPerChunk: { library: summary(perChunk.library), lean: summary(perChunk.lean) } },
  };
  const out = arg('out', '');
  if (out) fs.writeFileSync(out, JSON.stringify(result, null, 2));
  process.stdout.write(JSON.stringify(result, null, 2) + '\n');
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
