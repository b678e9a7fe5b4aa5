// Bad-input fuzzing of the scanner, the chunker and the whole indexer. The unit test
// (test/unit/fuzz.test.ts) runs a bounded slice; `npm run fuzz -- [--seconds 120] [--seed N]`
// runs rounds until the time is up and reports how many inputs were tried and every skip reason.
//
// Inputs: random bytes, invalid UTF-8, NUL bytes, a 10 MB single line, deeply nested brackets and
// other deep syntax, 100k-line files, unknown extensions, byte flips / truncation / splicing of the
// real chunker fixtures; trees with files deleted mid-scan, symlink loops, dangling links, FIFOs and
// names with spaces, newlines and non-ASCII characters.
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Engine } from '../../engine/src/engine';
import type { Chunker } from '../../engine/src/chunk';
import { scanWorkspace } from '../../engine/src/scan';
import type { ChunkedFile, SkipReason, SkippedFile } from '../../engine/src/types';
import { prng } from './scale/generate';

export { prng };

export const FIXTURE_DIR = path.resolve(__dirname, '../../../test/fixtures/chunk');

/** Extensions fed to the chunker: every grammar, some window-only languages, unknown and none. */
export const CHUNK_EXTENSIONS = [
  '.ts', '.mts', '.cts', '.tsx', '.js', '.mjs', '.cjs', '.jsx', '.py', '.pyi', '.go', '.java', '.rs', '.c', '.h',
  '.cc', '.cpp', '.hpp', '.md', '.json', '.yaml', '.sh', '.rb', '.txt', '.xyz', '', '.TS', '.weird ext',
];

const SKIP_REASONS: ReadonlySet<SkipReason> = new Set<SkipReason>([
  'ignored', 'too-large', 'binary', 'minified', 'generated', 'secret', 'symlink-loop', 'unreadable', 'invalid-name', 'unsupported',
]);

export interface FuzzInput {
  /** What the input is (for failure messages and counts). */
  kind: string;
  relPath: string;
  bytes: Buffer;
}

export function fixtureSources(): Array<{ name: string; bytes: Buffer }> {
  return fs.readdirSync(FIXTURE_DIR).sort().map((name) => ({ name, bytes: fs.readFileSync(path.join(FIXTURE_DIR, name)) }));
}

const pick = <T>(r: () => number, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];
const int = (r: () => number, n: number) => Math.floor(r() * n);

function randomBytes(r: () => number, n: number): Buffer {
  const b = Buffer.allocUnsafe(n);
  for (let i = 0; i < n; i++) b[i] = int(r, 256);
  return b;
}

/** Byte-level mutations of a real source file. */
export function mutate(r: () => number, src: Buffer, others: readonly Buffer[]): { how: string; bytes: Buffer } {
  const b = Buffer.from(src);
  switch (int(r, 8)) {
    case 0: {
      const flips = 1 + int(r, 20);
      for (let i = 0; i < flips && b.length; i++) b[int(r, b.length)] ^= 1 << int(r, 8);
      return { how: 'byte-flips', bytes: b };
    }
    case 1:
      return { how: 'truncation', bytes: b.subarray(0, int(r, b.length + 1)) };
    case 2: {
      const other = pick(r, others);
      const at = int(r, b.length + 1);
      const from = int(r, other.length + 1);
      return { how: 'splice', bytes: Buffer.concat([b.subarray(0, at), other.subarray(from), b.subarray(at)]) };
    }
    case 3: {
      const at = int(r, b.length + 1);
      return { how: 'nul-inserted', bytes: Buffer.concat([b.subarray(0, at), Buffer.alloc(1 + int(r, 4)), b.subarray(at)]) };
    }
    case 4: {
      const at = int(r, b.length + 1);
      const bad = pick(r, [[0xff], [0xc3], [0xe2, 0x82], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xc0, 0xaf]]);
      return { how: 'invalid-utf8-inserted', bytes: Buffer.concat([b.subarray(0, at), Buffer.from(bad), b.subarray(at)]) };
    }
    case 5: {
      // Duplicate a region many times: long files, repeated definitions.
      const s = int(r, b.length + 1);
      const e = Math.min(b.length, s + 1 + int(r, 200));
      const times = 1 + int(r, 200);
      return { how: 'region-repeated', bytes: Buffer.concat([b.subarray(0, e), ...Array(times).fill(b.subarray(s, e)), b.subarray(e)]) };
    }
    case 6: {
      // Unbalanced brackets: delete all closers or all openers.
      const closers = r() < 0.5;
      const out = [...b].filter((c) => !(closers ? [0x29, 0x5d, 0x7d] : [0x28, 0x5b, 0x7b]).includes(c));
      return { how: closers ? 'closers-removed' : 'openers-removed', bytes: Buffer.from(out) };
    }
    default: {
      const s = int(r, b.length + 1);
      const e = Math.min(b.length, s + int(r, 300));
      return { how: 'region-deleted', bytes: Buffer.concat([b.subarray(0, s), b.subarray(e)]) };
    }
  }
}

/** Pathological contents, independent of extension (the caller pairs them with each extension). */
export function pathologicalContents(big: boolean): Array<{ kind: string; text: string }> {
  const n = big ? 1 : 0.1;
  const depth = Math.round(100_000 * n);
  return [
    { kind: 'empty', text: '' },
    { kind: 'only-newlines', text: '\n'.repeat(1000) },
    { kind: 'only-cr', text: '\r'.repeat(1000) + 'x' },
    { kind: 'crlf', text: 'function a() {\r\n  return b();\r\n}\r\n' },
    { kind: 'bom', text: '\ufeffclass A {}\n' },
    { kind: 'lone-surrogates', text: 'const s = "\ud800\udfff\udc00\ud800";\nfunction f() { return s; }\n' },
    { kind: 'non-ascii-identifiers', text: 'def grüße_λ(ñ):\n    return ñ\nfunction 変数() { return 1 }\n' },
    { kind: 'single-line-10MB', text: 'a'.repeat(Math.round(10_000_000 * n)) },
    { kind: 'single-line-code-3MB', text: 'x = f(1); '.repeat(Math.round(300_000 * n)) },
    { kind: 'nested-parens', text: '('.repeat(depth) + ')'.repeat(depth) },
    { kind: 'nested-open-only', text: 'f(' + '{['.repeat(depth / 2) },
    { kind: 'nested-brackets-at-limit', text: 'x = ' + '['.repeat(250) + ']'.repeat(250) + '\n' },
    { kind: 'long-binary-expression', text: 'x = ' + Array(Math.round(20_000 * n)).fill('a').join(' + ') + ';\n' },
    { kind: 'nested-ternaries', text: 'x = ' + 'a ? b : '.repeat(Math.round(5_000 * n)) + 'c;\n' },
    { kind: 'nested-jsx', text: 'const v = ' + '<div>'.repeat(Math.round(3_000 * n)) + '</div>'.repeat(Math.round(3_000 * n)) + ';\n' },
    { kind: 'nested-python-blocks', text: Array.from({ length: 400 }, (_, i) => ' '.repeat(i) + 'if x:').join('\n') + '\n' + ' '.repeat(400) + 'pass\n' },
    { kind: 'nested-functions', text: 'function f() {\n'.repeat(200) + '}\n'.repeat(200) },
    { kind: 'lines-100k', text: Array.from({ length: Math.round(100_000 * n) }, (_, i) => `call${i % 97}(${i});`).join('\n') + '\n' },
    { kind: 'defs-10k', text: Array.from({ length: Math.round(10_000 * n) }, (_, i) => `function f${i}(a) { return g${i}(a); }`).join('\n') + '\n' },
    { kind: 'unterminated-string', text: 'const s = "' + 'abc '.repeat(10_000) },
    { kind: 'unterminated-comment', text: '/* ' + 'comment\n'.repeat(5_000) },
  ];
}

export interface ChunkCheck {
  language: string;
  chunks: number;
}

/** The chunker's documented contract: sorted, disjoint, inside the file, every non-blank line covered. */
export function checkChunked(content: string, result: ChunkedFile): string | null {
  const lines = content.split(/\r\n|\r|\n/); // the editor's lines: CRLF, LF and a lone CR each end one
  let prevEnd = -1;
  for (const c of result.chunks) {
    if (!Number.isInteger(c.startLine) || !Number.isInteger(c.endLine)) return `non-integer range ${c.startLine}-${c.endLine}`;
    if (c.startLine > c.endLine) return `inverted range ${c.startLine}-${c.endLine}`;
    if (c.startLine <= prevEnd) return `overlap or unsorted at ${c.startLine} (previous ends ${prevEnd})`;
    if (c.endLine >= lines.length) return `range ${c.startLine}-${c.endLine} past the last line ${lines.length - 1}`;
    prevEnd = c.endLine;
  }
  let k = 0;
  for (let i = 0; i < lines.length; i++) {
    if (!/\S/.test(lines[i])) continue;
    while (k < result.chunks.length && result.chunks[k].endLine < i) k++;
    if (k >= result.chunks.length || result.chunks[k].startLine > i) return `non-blank line ${i} is in no chunk`;
  }
  for (const d of result.definitions) {
    if (d.startLine > d.endLine || d.endLine >= lines.length || d.startLine < 0) return `definition ${d.name} has range ${d.startLine}-${d.endLine}`;
  }
  return null;
}

export interface FuzzStats {
  chunkInputs: number;
  scanTrees: number;
  scannedEntries: number;
  indexRuns: number;
  skipReasons: Partial<Record<SkipReason, number>>;
  /** Detail strings of skips, counted (e.g. "vanished during the scan"). */
  skipDetails: Record<string, number>;
  /** Chunker fallbacks to line windows, by reason. */
  chunkFallbacks: Record<string, number>;
  /** Inputs by kind. */
  inputKinds: Record<string, number>;
  failures: string[];
}

export function newStats(): FuzzStats {
  return { chunkInputs: 0, scanTrees: 0, scannedEntries: 0, indexRuns: 0, skipReasons: {}, skipDetails: {}, chunkFallbacks: {}, inputKinds: {}, failures: [] };
}

const bump = (m: Record<string, number>, k: string, by = 1) => (m[k] = (m[k] ?? 0) + by);

/** Chunks one input; any exception or broken invariant is recorded as a failure. */
export async function fuzzChunkOne(chunker: Chunker, stats: FuzzStats, kind: string, relPath: string, text: string): Promise<void> {
  stats.chunkInputs++;
  bump(stats.inputKinds, kind);
  try {
    const result = await chunker.chunk(relPath, text);
    const broken = checkChunked(text, result);
    if (broken) stats.failures.push(`chunk ${kind} ${JSON.stringify(relPath)}: ${broken}`);
  } catch (e) {
    stats.failures.push(`chunk ${kind} ${JSON.stringify(relPath)} threw: ${(e as Error).stack ?? e}`);
  }
}

/** One round of chunker fuzzing: every pathological content with a random extension, and `mutations` mutated fixtures. */
export async function fuzzChunkerRound(chunker: Chunker, r: () => number, stats: FuzzStats, opts: { mutations: number; big: boolean }): Promise<void> {
  const fixtures = fixtureSources();
  const all = fixtures.map((f) => f.bytes);
  for (const p of pathologicalContents(opts.big)) {
    const ext = pick(r, CHUNK_EXTENSIONS);
    await fuzzChunkOne(chunker, stats, p.kind, `fuzz/${p.kind}${ext}`, p.text);
  }
  for (let i = 0; i < opts.mutations; i++) {
    const f = pick(r, fixtures);
    const m = mutate(r, f.bytes, all);
    // The fixture's own language most of the time, any other extension sometimes.
    const ext = r() < 0.8 ? path.extname(f.name) : pick(r, CHUNK_EXTENSIONS);
    const decoded = r() < 0.8 ? m.bytes.toString('utf8') : m.bytes.toString('latin1');
    await fuzzChunkOne(chunker, stats, `mutated:${m.how}`, `fuzz/${path.parse(f.name).name}${ext}`, decoded);
  }
  for (let i = 0; i < 3; i++) {
    await fuzzChunkOne(chunker, stats, 'random-bytes', `fuzz/random${pick(r, CHUNK_EXTENSIONS)}`, randomBytes(r, 1 + int(r, 20_000)).toString('utf8'));
  }
  for (const [k, v] of Object.entries(chunker.fallbacks)) stats.chunkFallbacks[k] = v ?? 0;
}

/** What a bad tree holds, and the skip reason each bad file must get (relPath -> reason). */
export interface BadTree {
  root: string;
  expectSkip: Map<string, SkipReason>;
  /** Files that are fine and must be indexed. */
  expectIndexed: Set<string>;
  /** Directory whose files the scan deletes while it runs (see `vanishOnFirstFile`). */
  vanishingDir: string;
}

/** Writes a workspace full of bad inputs (plus good ones) under a new temp dir. */
export function buildBadTree(r: () => number, opts: { big: boolean; parent?: string }): BadTree {
  const root = fs.mkdtempSync(path.join(opts.parent ?? os.tmpdir(), 'rr-fuzz-tree-'));
  const expectSkip = new Map<string, SkipReason>();
  const expectIndexed = new Set<string>();
  const write = (rel: string, data: Buffer | string, expect?: SkipReason) => {
    const abs = path.join(root, rel);
    fs.mkdirSync(path.dirname(abs), { recursive: true });
    fs.writeFileSync(abs, data);
    if (expect) expectSkip.set(rel, expect);
    else expectIndexed.add(rel);
  };
  const fixtures = fixtureSources();
  for (const f of fixtures) write(`good/${f.name}`, f.bytes);
  write('good/name with spaces.ts', 'export function spaced() { return 1; }\n');
  write('good/ünïcödé-名前.py', 'def grüße():\n    return 1\n');
  write('good/line\nbreak.js', 'function lineBreakInName() { return 2; }\n');
  write('good/unknown.xyz', 'some text in an unknown format\n');
  write('good/no-extension', 'plain text file without extension\n');
  write('good/deep-brackets.ts', 'const x = ' + '[\n'.repeat(5000) + ']\n'.repeat(5000) + ';\n');
  write('good/lines-100k.py', Array.from({ length: opts.big ? 100_000 : 20_000 }, (_, i) => `x${i % 13}=1`).join('\n') + '\n');
  write('bad/random.bin', randomBytes(r, 4096), 'binary');
  write('bad/random-no-ext', Buffer.concat([Buffer.from('abc'), Buffer.alloc(3), randomBytes(r, 512)]), 'binary');
  write('bad/nul-in-code.ts', Buffer.concat([Buffer.from('function a() {\n'), Buffer.alloc(1), Buffer.from('}\n')]), 'binary');
  // Indexed as the editor shows them: invalid bytes as U+FFFD, UTF-16 decoded, lone CRs as line breaks.
  write('good/invalid-utf8.py', Buffer.concat([Buffer.from('def f():\n    return "'), Buffer.from([0xff, 0xfe, 0xc3]), Buffer.from('"\n')]));
  write('good/overlong-utf8.go', Buffer.concat([Buffer.from('package x\n// '), Buffer.from([0xc0, 0xaf]), Buffer.from('\n')]));
  write('good/utf16le.py', Buffer.from('\ufeffdef utf16_little():\n    return 1\n', 'utf16le'));
  write('good/utf16be.py', Buffer.from('\ufeffdef utf16_big():\n    return 2\n', 'utf16le').swap16());
  write('good/lone-cr.py', 'def lone_cr():\r    return 3\r');
  // Names that are not UTF-8 (a file, and a folder with a file in it): no path can name them.
  const rawName = (rel: string, bad: number[]) => Buffer.concat([Buffer.from(path.join(root, rel)), Buffer.from(bad)]);
  fs.mkdirSync(path.join(root, 'bad'), { recursive: true });
  fs.writeFileSync(Buffer.concat([rawName('bad/caf', [0xe9]), Buffer.from('.py')]), 'x = 1\n');
  expectSkip.set('bad/caf\\xe9.py', 'invalid-name');
  fs.mkdirSync(rawName('bad/dir', [0xff]));
  fs.writeFileSync(Buffer.concat([rawName('bad/dir', [0xff]), Buffer.from('/inside.py')]), 'y = 2\n');
  expectSkip.set('bad/dir\\xff/', 'invalid-name');
  write('bad/single-line-10MB.js', 'a'.repeat(opts.big ? 10_000_000 : 1_200_000), 'too-large');
  write('bad/minified.js', ('var a=function(b){return b+1};').repeat(2000), 'minified');
  write('bad/image.png', randomBytes(r, 300), 'binary');
  write('bad/.env', 'API_KEY=fuzz-secret\n', 'secret');
  write('bad/generated.ts', '// Code generated by protoc. DO NOT EDIT.\nexport const x = 1;\n', 'generated');
  for (let i = 0; i < 6; i++) {
    const f = pick(r, fixtures);
    const m = mutate(r, f.bytes, fixtures.map((x) => x.bytes));
    write(`mutated/${i}-${m.how}${path.extname(f.name)}`, m.bytes, undefined);
    // Mutations may legitimately make a file binary or invalid UTF-8: decided after the fact.
    expectIndexed.delete(`mutated/${i}-${m.how}${path.extname(f.name)}`);
  }
  // Links: a loop to the root, a loop between two links, a dangling link, a link to outside.
  fs.mkdirSync(path.join(root, 'links'), { recursive: true });
  fs.symlinkSync('..', path.join(root, 'links/to-root'));
  expectSkip.set('links/to-root/', 'symlink-loop');
  fs.symlinkSync('b', path.join(root, 'links/a'));
  fs.symlinkSync('a', path.join(root, 'links/b'));
  expectSkip.set('links/a', 'symlink-loop');
  expectSkip.set('links/b', 'symlink-loop');
  fs.symlinkSync('does-not-exist.ts', path.join(root, 'links/dangling.ts'));
  expectSkip.set('links/dangling.ts', 'unreadable');
  fs.symlinkSync(os.tmpdir(), path.join(root, 'links/outside'));
  expectSkip.set('links/outside', 'ignored');
  // A FIFO: opening it for reading would block forever.
  try {
    execFileSync('mkfifo', [path.join(root, 'bad/pipe.ts')]);
    expectSkip.set('bad/pipe.ts', 'unsupported');
  } catch {
    // no mkfifo: skip this case
  }
  // Unreadable files only mean something when we are not root (root reads through mode 000).
  if (process.getuid?.() !== 0) {
    write('bad/unreadable.ts', 'export const hidden = 1;\n', 'unreadable');
    fs.chmodSync(path.join(root, 'bad/unreadable.ts'), 0o000);
  }
  const vanishingDir = 'vanishing';
  for (let i = 0; i < 8; i++) write(`${vanishingDir}/v${i}.ts`, `export function v${i}() { return ${i}; }\n`);
  for (let i = 0; i < 8; i++) expectIndexed.delete(`${vanishingDir}/v${i}.ts`);
  return { root, expectSkip, expectIndexed, vanishingDir };
}

/** Deletes every other file of `dir` when the first file of it is accepted: later ones vanish mid-scan. */
export function vanishOnFirstFile(tree: BadTree): (relPath: string) => void {
  let done = false;
  return (relPath: string) => {
    if (done || !relPath.startsWith(tree.vanishingDir + '/')) return;
    done = true;
    for (const name of fs.readdirSync(path.join(tree.root, tree.vanishingDir))) {
      if (`${tree.vanishingDir}/${name}` !== relPath) fs.rmSync(path.join(tree.root, tree.vanishingDir, name), { force: true });
    }
  };
}

function recordSkips(stats: FuzzStats, skipped: readonly SkippedFile[]): void {
  for (const s of skipped) {
    stats.skipReasons[s.reason] = (stats.skipReasons[s.reason] ?? 0) + 1;
    bump(stats.skipDetails, `${s.reason}: ${(s.detail ?? '').replace(/\d+/g, 'N').slice(0, 60)}`);
  }
}

/** Checks a skip list against a tree's expectations; returns problems. */
export function compareSkips(tree: BadTree, skipped: readonly SkippedFile[], indexed: Iterable<string>, where: string): string[] {
  const problems: string[] = [];
  const byPath = new Map(skipped.map((s) => [s.relPath, s]));
  for (const s of skipped) if (!SKIP_REASONS.has(s.reason)) problems.push(`${where}: unknown skip reason ${s.reason} for ${s.relPath}`);
  for (const [rel, reason] of tree.expectSkip) {
    const got = byPath.get(rel);
    if (!got) problems.push(`${where}: ${JSON.stringify(rel)} should be skipped as ${reason}, but is not in the skip list`);
    else if (got.reason !== reason) problems.push(`${where}: ${JSON.stringify(rel)} skipped as ${got.reason} (${got.detail ?? ''}), expected ${reason}`);
  }
  const indexedSet = new Set(indexed);
  for (const rel of tree.expectIndexed) if (!indexedSet.has(rel)) problems.push(`${where}: ${JSON.stringify(rel)} should be indexed (${byPath.get(rel)?.reason ?? 'not skipped either'})`);
  for (const rel of indexedSet) if (tree.expectSkip.has(rel)) problems.push(`${where}: ${JSON.stringify(rel)} was indexed but should be skipped`);
  return problems;
}

/** Scans a bad tree (head content check, files vanishing mid-scan) and checks every verdict. */
export async function fuzzScanTree(tree: BadTree, stats: FuzzStats): Promise<void> {
  stats.scanTrees++;
  const vanish = vanishOnFirstFile(tree);
  try {
    const result = await scanWorkspace(tree.root, { contentCheck: 'head' }, { onFile: (f) => vanish(f.relPath) });
    stats.scannedEntries += result.files.length + result.skipped.length;
    recordSkips(stats, result.skipped);
    const problems = compareSkips(tree, result.skipped, result.files.map((f) => f.relPath), 'scan');
    const vanished = result.skipped.filter((s) => s.relPath.startsWith(tree.vanishingDir + '/'));
    const kept = result.files.filter((f) => f.relPath.startsWith(tree.vanishingDir + '/'));
    // Depending on readdir order, each deleted file is either never listed or reported as vanished.
    if (kept.length !== 1) problems.push(`scan: ${kept.length} files of the vanishing dir accepted, expected 1`);
    for (const v of vanished) if (v.reason !== 'unreadable') problems.push(`scan: vanished file ${v.relPath} skipped as ${v.reason}`);
    stats.failures.push(...problems);
  } catch (e) {
    stats.failures.push(`scan threw: ${(e as Error).stack ?? e}`);
  }
}

/**
 * Indexes a bad tree with the whole Engine (dense off); files are deleted between the scan and
 * their read (from the progress callback), which must give `unreadable` skips, not a crash.
 */
export async function fuzzIndexTree(tree: BadTree, stats: FuzzStats, indexDir: string): Promise<{ indexed: string[]; skipped: readonly SkippedFile[] } | undefined> {
  stats.indexRuns++;
  let engine: Engine | undefined;
  try {
    engine = await Engine.open({ root: tree.root, indexDir, dense: false });
    // Deleting the vanishing dir's files on the first parse progress: they were scanned, not yet read.
    let deleted = false;
    const doomed: string[] = [];
    await engine.indexAll((p) => {
      if (deleted || p.phase !== 'parse') return;
      deleted = true;
      for (const name of fs.readdirSync(path.join(tree.root, tree.vanishingDir))) {
        const rel = `${tree.vanishingDir}/${name}`;
        if (rel !== p.file) {
          fs.rmSync(path.join(tree.root, rel), { force: true });
          doomed.push(rel);
        }
      }
    });
    const skipped = engine.skippedFiles();
    recordSkips(stats, skipped);
    const retrieved = await engine.retrieve('function return', { k: 50 });
    const indexed = new Set(retrieved.map((h) => h.file));
    const st = engine.stats();
    const problems = compareSkips(tree, skipped, [], 'indexAll').filter((p) => !p.includes('should be indexed'));
    for (const rel of doomed) {
      const s = skipped.find((x) => x.relPath === rel);
      if (!s) problems.push(`indexAll: ${rel} deleted before it was read, but not reported`);
      else if (s.reason !== 'unreadable') problems.push(`indexAll: ${rel} deleted before it was read, skipped as ${s.reason}`);
    }
    for (const [rel] of tree.expectSkip) if (indexed.has(rel)) problems.push(`indexAll: retrieve returned skipped file ${rel}`);
    if (st.files < tree.expectIndexed.size - 8) problems.push(`indexAll: only ${st.files} files indexed, expected at least ${tree.expectIndexed.size - 8}`);
    stats.failures.push(...problems);
    return { indexed: [...indexed], skipped };
  } catch (e) {
    stats.failures.push(`indexAll threw: ${(e as Error).stack ?? e}`);
    return undefined;
  } finally {
    await engine?.close();
  }
}

function report(stats: FuzzStats, seconds: number, seed: number): string {
  const lines = [
    `fuzz: seed ${seed}, ${seconds.toFixed(0)} s`,
    `  chunker inputs: ${stats.chunkInputs}`,
    `  scanned trees: ${stats.scanTrees} (${stats.scannedEntries} entries), Engine.indexAll runs: ${stats.indexRuns}`,
    `  skip reasons: ${JSON.stringify(stats.skipReasons)}`,
    '  skip details:',
    ...Object.entries(stats.skipDetails).sort((a, b) => b[1] - a[1]).map(([k, v]) => `    ${String(v).padStart(6)}  ${k}`),
    `  chunker fallbacks to windows: ${JSON.stringify(stats.chunkFallbacks)}`,
    `  inputs by kind: ${JSON.stringify(stats.inputKinds)}`,
    `  failures: ${stats.failures.length}`,
    ...stats.failures.slice(0, 50).map((f) => `    ${f.split('\n')[0]}`),
  ];
  return lines.join('\n');
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const get = (name: string) => {
    const i = argv.indexOf(`--${name}`);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const seconds = Number(get('seconds') ?? 120);
  const seed = Number(get('seed') ?? Date.now() % 1_000_000);
  const r = prng(seed);
  const { Chunker } = await import('../../engine/src/chunk');
  const chunker = await Chunker.create();
  const stats = newStats();
  const t0 = Date.now();
  let round = 0;
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'rr-fuzz-'));
  try {
    while ((Date.now() - t0) / 1000 < seconds) {
      await fuzzChunkerRound(chunker, r, stats, { mutations: 200, big: round % 5 === 0 });
      if (round % 3 === 0) {
        const tree = buildBadTree(r, { big: round % 6 === 0, parent: work });
        await fuzzScanTree(tree, stats);
        fs.rmSync(tree.root, { recursive: true, force: true });
        const tree2 = buildBadTree(r, { big: false, parent: work });
        await fuzzIndexTree(tree2, stats, path.join(work, `index-${round}`));
        fs.rmSync(tree2.root, { recursive: true, force: true });
        fs.rmSync(path.join(work, `index-${round}`), { recursive: true, force: true });
      }
      round++;
      console.error(`round ${round}: ${stats.chunkInputs} chunker inputs, ${stats.failures.length} failures, ${((Date.now() - t0) / 1000).toFixed(0)} s`);
    }
  } finally {
    await chunker.dispose();
    fs.rmSync(work, { recursive: true, force: true });
  }
  console.log(report(stats, (Date.now() - t0) / 1000, seed));
  process.exitCode = stats.failures.length ? 1 : 0;
}

if (require.main === module) {
  main().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
