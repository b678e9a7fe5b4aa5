// `node --expose-gc out/test/bench/scale/breakdown.js INDEX_DIR`
// Memory each part of a saved index costs once loaded (RSS / V8 heap / external deltas after a full
// GC, loading the parts one by one), next to its size on disk: which component to shrink first.
import * as fs from 'fs';
import * as path from 'path';
import { Bm25Index } from '../../../engine/src/lexical/bm25';
import { VectorIndex } from '../../../engine/src/vector';
import type { VectorCommit } from '../../../engine/src/vector/persist';
import { decodeTables } from '../../../engine/src/index/tables';
import { committedFiles } from '../../../engine/src/index/indexStore';

const dir = process.argv[2];
if (!dir || !global.gc) {
  console.error('usage: node --expose-gc breakdown.js INDEX_DIR');
  process.exit(2);
}
const mb = (b: number) => (b / 1048576).toFixed(1);
const snap = () => {
  global.gc!();
  const m = process.memoryUsage();
  return { rss: m.rss, heap: m.heapUsed, ext: m.external };
};
const keep: unknown[] = [];
let prev = snap();
function step(name: string, diskBytes: number, load: () => unknown): void {
  keep.push(load());
  const now = snap();
  console.log(`${name.padEnd(18)} disk ${mb(diskBytes).padStart(7)} MB   rss +${mb(now.rss - prev.rss)}  heap +${mb(now.heap - prev.heap)}  external +${mb(now.ext - prev.ext)} MB`);
  prev = now;
}
const size = (f: string) => (fs.existsSync(path.join(dir, f)) ? fs.statSync(path.join(dir, f)).size : 0);
// The base files only (delta segments are small and replayed on load).
const { bases } = committedFiles(dir);
step(bases.tables, size(bases.tables), () => decodeTables(fs.readFileSync(path.join(dir, bases.tables))));
for (const f of [bases.lexical, bases.docField, bases.normalized]) {
  step(f, size(f), () => Bm25Index.deserialize(fs.readFileSync(path.join(dir, f))));
}
// The vectors' commit is in the manifest (index/manifest.ts `vectors`).
const committed = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as { dim: number; modelId: string; vectors?: VectorCommit };
if (committed.vectors) {
  const bytes = fs.readdirSync(path.join(dir, 'vectors')).reduce((s, f) => s + size(path.join('vectors', f)), 0);
  step('vectors/', bytes, () => VectorIndex.open(path.join(dir, 'vectors'), committed.vectors!, { dim: committed.dim, modelId: committed.modelId }));
}
console.log(`total rss ${mb(prev.rss)} MB (${keep.length} parts loaded)`);
