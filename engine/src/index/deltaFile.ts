// A delta segment file (delta-<seq>.bin): what one save added and removed, immutable once the
// manifest lists it. Layout (binary.ts sections): magic "RRDELTA1", u32 layout version, then
// deflated (raw, level 1) the body: a JSON section {seq, tables, fields} — the tables' per-file
// changes (tablesDelta.ts) or null, and the lexical fields this delta has a part for — then per
// such field the columns of its LexicalDelta (bm25Delta.ts): removed ids, added ids, lengths,
// entry counts, entries' term indexes and counts (int32), and its terms as a JSON array.
// The manifest's sha256 vouches for the whole file.
import { deflateRawSync, inflateRawSync } from 'zlib';
import type { LexicalDelta } from '../lexical/bm25Delta';
import { BinaryReader, BinaryWriter, owned } from '../store/binary';
import type { TablesDelta } from './tablesDelta';
import { FORMAT_VERSIONS } from '../store/formatVersions';

const MAGIC = Buffer.from('RRDELTA1');
/** Bumped with any change below (the store's format version is bumped with it). */
const DELTA_LAYOUT = FORMAT_VERSIONS.delta;
const DEFLATE_LEVEL = 1;

export interface DeltaSegment {
  seq: number;
  tables?: TablesDelta;
  lexical: Record<string, LexicalDelta>;
}

export function encodeDelta(d: DeltaSegment): Buffer {
  const head = new BinaryWriter();
  head.bytes(MAGIC);
  head.u32(DELTA_LAYOUT);
  const w = new BinaryWriter();
  const fields = Object.keys(d.lexical);
  w.bytes(Buffer.from(JSON.stringify({ seq: d.seq, tables: d.tables ?? null, fields })));
  for (const f of fields) {
    const x = d.lexical[f];
    for (const col of [x.removed, x.ids, x.lens, x.counts, x.termOf, x.tfs]) w.bytes(col);
    w.bytes(Buffer.from(JSON.stringify(x.terms)));
  }
  head.bytes(deflateRawSync(w.finish(), { level: DEFLATE_LEVEL }));
  return head.finish();
}

/** Throws on anything malformed (the store reports it and the index is rebuilt). */
export function decodeDelta(buf: Buffer, name: string): DeltaSegment {
  const head = new BinaryReader(buf);
  if (!head.bytes().equals(MAGIC)) throw new Error(`${name} is not a delta segment`);
  const layout = head.u32();
  if (layout !== DELTA_LAYOUT) throw new Error(`${name} layout ${layout}, expected ${DELTA_LAYOUT}`);
  const r = new BinaryReader(inflateRawSync(head.bytes()));
  if (!head.done) throw new Error(`${name} has trailing bytes`);
  const meta = JSON.parse(r.bytes().toString('utf8')) as { seq: number; tables: TablesDelta | null; fields: string[] };
  if (!Number.isSafeInteger(meta.seq) || !Array.isArray(meta.fields)) throw new Error(`${name} header malformed`);
  const lexical: Record<string, LexicalDelta> = {};
  for (const f of meta.fields) {
    const [removed, ids, lens, counts, termOf, tfs] = [0, 1, 2, 3, 4, 5].map(() => owned(r.int32s()));
    const terms = JSON.parse(r.bytes().toString('utf8')) as unknown;
    if (!Array.isArray(terms) || terms.some((t) => typeof t !== 'string')) throw new Error(`${name}: ${f} terms malformed`);
    lexical[f] = { removed, ids, lens, counts, termOf, tfs, terms: terms as string[] };
  }
  if (!r.done) throw new Error(`${name} has trailing bytes`);
  return { seq: meta.seq, tables: meta.tables ?? undefined, lexical };
}
