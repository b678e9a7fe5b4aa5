// `node out/test/bench/vectorRealRecall.js INDEX_DIR [--queries 300] [--nprobe 8,16,24,32]`
// Recall@10 of the IVF against an exact scan of the same int8 vectors, on the real embeddings an
// engine index holds (e.g. the one `bench:scale --keep` leaves behind): stored vectors serve as
// queries, each leaving itself out. Only the approximation is measured here; the int8 cost needs
// float vectors (see vectorScale.ts).
import * as fs from 'fs';
import * as path from 'path';
import { VectorIndex } from '../../engine/src/vector';
import type { VectorCommit } from '../../engine/src/vector/persist';
import { readRecord, recordBytes } from '../../engine/src/vector/int8Kernel';

const dir = process.argv[2];
const arg = (name: string, dflt: string): string => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : dflt;
};
const vecDir = path.join(dir, 'vectors');
// The vectors' commit is in the index's manifest (index/manifest.ts `vectors`).
const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as { dim: number; modelId: string; vectors: VectorCommit };
const header = { dim: manifest.dim, modelId: manifest.modelId, count: manifest.vectors.count };
const index = VectorIndex.open(vecDir, manifest.vectors, { dim: header.dim, modelId: header.modelId });
if ('error' in index) throw new Error(index.error);
const nq = Number(arg('queries', '300'));
// Queries: records spread evenly through the lists file (ids differ from file order).
const stride = recordBytes(header.dim);
const ivf = fs.readFileSync(path.join(vecDir, manifest.vectors.lists ?? 'no-lists'));
const lists = ivf.readUInt32LE(12);
const listed = ivf.readUInt32LE(16);
const records = ivf.subarray(24 + lists * stride + (lists + 1) * 4); // ivfLists.ts layout
const step = Math.floor(listed / nq);
const queries = Array.from({ length: nq }, (_, i) => ({
  id: records.readUInt32LE(i * step * stride),
  vec: readRecord(records, i * step * stride, header.dim, new Float32Array(header.dim)),
}));
const top10 = (res: { id: number }[], self: number) => res.filter((r) => r.id !== self).slice(0, 10).map((r) => r.id);
const truth = queries.map((q) => top10(index.searchExact(q.vec, 11), q.id));
const rows: Record<string, unknown>[] = [];
for (const p of arg('nprobe', '8,16,24,32').split(',').map(Number)) {
  index.nprobe = p;
  let hits = 0;
  const cpu: number[] = [];
  queries.forEach((q, i) => {
    const c = process.cpuUsage();
    const got = top10(index.search(q.vec, 11), q.id);
    const u = process.cpuUsage(c);
    cpu.push((u.user + u.system) / 1000);
    hits += got.filter((id) => truth[i].includes(id)).length;
  });
  cpu.sort((a, b) => a - b);
  rows.push({ nprobe: p, recall10VsExactInt8: +(hits / (nq * 10)).toFixed(4), cpuP50: cpu[nq >> 1], cpuP95: cpu[Math.floor(nq * 0.95)] });
}
console.log(JSON.stringify({ vectors: index.size, dim: header.dim, lists: index.listCount, model: header.modelId, rows }, null, 1));
index.close();
