// tables.bin: the engine's bookkeeping besides the lexical and vector indexes, in one binary file.
// Layout (little endian, sections 8-byte aligned, see binary.ts):
//   magic "RRTABLES", u32 layout version, then deflated (raw, level 1: ~45% of the size for
//   ~3 ms per 1000 chunks) the body: f64 next chunk id,
//   path pool, name pool (stringPool.ts), file table (fileTable.ts), chunk rows (chunkTable.ts),
//   definitions: signature pool and per-file rows (definitionTable.ts).
// The manifest's sha256 vouches for the whole file; the layout version is checked again here.
import { deflateRawSync, inflateRawSync } from 'zlib';
import { DefinitionTable } from '../enrich/definitionTable';
import { ChunkTable } from '../store/chunkTable';
import { BinaryReader, BinaryWriter, smallInteger } from '../store/binary';
import { FileTable } from '../store/fileTable';
import { StringPool } from '../store/stringPool';

export const TABLES_FILE = 'tables.bin';
const MAGIC = Buffer.from('RRTABLES');
/** Bumped with any change below (the store's format version is bumped with it). */
const TABLES_LAYOUT = 1;
const DEFLATE_LEVEL = 1;

/** Everything the engine keeps per file and per chunk; the pools are shared by the tables. */
export interface IndexTables {
  paths: StringPool;
  names: StringPool;
  files: FileTable;
  chunks: ChunkTable;
  defs: DefinitionTable;
  nextChunkId: number;
}

/** Empty tables around `chunks` (a new index's document table), sharing its pools. */
export function emptyTables(chunks = new ChunkTable()): IndexTables {
  const { paths, names } = chunks;
  return { paths, names, files: new FileTable(paths), chunks, defs: new DefinitionTable(paths, names), nextChunkId: 0 };
}

export function encodeTables(t: IndexTables): Buffer {
  const head = new BinaryWriter();
  head.bytes(MAGIC);
  head.u32(TABLES_LAYOUT);
  const w = new BinaryWriter();
  w.f64(t.nextChunkId);
  t.paths.write(w);
  t.names.write(w);
  t.files.write(w);
  t.chunks.write(w);
  t.defs.write(w);
  head.bytes(deflateRawSync(w.finish(), { level: DEFLATE_LEVEL }));
  return head.finish();
}

/**
 * Inflates into one output buffer. zlib's default 16 KB output chunks, concatenated at the end,
 * cost ~2x the body (~150 MB at 100k files) in thousands of small allocations that glibc kept
 * after the load. One chunk sized well above the usual ratio (level 1 deflates these tables to
 * ~55%) is filled in place; its untouched tail is never made resident (a large allocation is its
 * own mmap), and the buffer is freed after decoding (tables copy what they keep, see binary.ts).
 * A body that does not fit still inflates correctly, through the concatenation.
 */
function inflateSingleBuffer(deflated: Buffer): Buffer {
  const chunkSize = Math.max(1 << 16, deflated.length * 4 + (1 << 16));
  return inflateRawSync(deflated, { chunkSize });
}

/** Throws on anything malformed (the store reports it and the index is rebuilt). */
export function decodeTables(buf: Buffer): IndexTables {
  const head = new BinaryReader(buf);
  if (!head.bytes().equals(MAGIC)) throw new Error(`${TABLES_FILE} is not an index table file`);
  const layout = head.u32();
  if (layout !== TABLES_LAYOUT) throw new Error(`${TABLES_FILE} layout ${layout}, expected ${TABLES_LAYOUT}`);
  const r = new BinaryReader(inflateSingleBuffer(head.bytes()));
  if (!head.done) throw new Error(`${TABLES_FILE} has trailing bytes`);
  const nextChunkId = smallInteger(r.f64());
  const paths = StringPool.read(r);
  const names = StringPool.read(r);
  const files = FileTable.read(r, paths);
  const chunks = ChunkTable.read(r, paths, names);
  const defs = DefinitionTable.read(r, paths, names);
  if (!r.done) throw new Error(`${TABLES_FILE} has trailing bytes`);
  return { paths, names, files, chunks, defs, nextChunkId };
}
