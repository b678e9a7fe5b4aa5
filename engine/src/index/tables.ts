// tables.bin: the engine's bookkeeping besides the lexical and vector indexes, in one binary file.
// Layout (little endian, sections 8-byte aligned, see binary.ts):
//   magic "RRTABLES", u32 layout version, f64 next chunk id,
//   path pool, name pool (stringPool.ts), file table (fileTable.ts), chunk rows (chunkTable.ts),
//   definitions: signature pool and per-file rows (definitionTable.ts).
// Not compressed since layout 2: the sections are written from the tables' own columns, with no
// copy of the file in memory (docs/investigations/cold-build-memory.md).
// The manifest's sha256 vouches for the whole file; the layout version is checked again here.
import { DefinitionTable } from '../enrich/definitionTable';
import { ChunkTable } from '../store/chunkTable';
import { BinaryReader, BinaryWriter, smallInteger } from '../store/binary';
import { FileTable } from '../store/fileTable';
import { StringPool } from '../store/stringPool';
import { FORMAT_VERSIONS } from '../store/formatVersions';

export const TABLES_FILE = 'tables.bin';
const MAGIC = Buffer.from('RRTABLES');
/** Bumped with any change below (the store's format version is bumped with it). */
const TABLES_LAYOUT = FORMAT_VERSIONS.tables;

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

/**
 * The file's bytes in pieces, most of them views of the tables' columns: write them (store/atomic.ts
 * writePartsAtomic) before the tables change again.
 */
export function tablesParts(t: IndexTables): Buffer[] {
  const w = new BinaryWriter();
  w.raw(MAGIC);
  w.u32(TABLES_LAYOUT);
  w.f64(t.nextChunkId);
  t.paths.write(w);
  t.names.write(w);
  t.files.write(w);
  t.chunks.write(w);
  t.defs.write(w);
  return w.parts();
}

/** The whole file in one buffer (tests, tools). */
export function encodeTables(t: IndexTables): Buffer {
  return Buffer.concat(tablesParts(t));
}

/** Throws on anything malformed (the store reports it and the index is rebuilt). */
export function decodeTables(buf: Buffer): IndexTables {
  if (buf.length < MAGIC.length || !buf.subarray(0, MAGIC.length).equals(MAGIC)) throw new Error(`${TABLES_FILE} is not an index table file`);
  const r = new BinaryReader(buf, MAGIC.length);
  const layout = r.u32();
  if (layout !== TABLES_LAYOUT) throw new Error(`${TABLES_FILE} layout ${layout}, expected ${TABLES_LAYOUT}`);
  const nextChunkId = smallInteger(r.f64());
  const paths = StringPool.read(r);
  const names = StringPool.read(r);
  const files = FileTable.read(r, paths);
  const chunks = ChunkTable.read(r, paths, names);
  const defs = DefinitionTable.read(r, paths, names);
  if (!r.done) throw new Error(`${TABLES_FILE} has trailing bytes`);
  return { paths, names, files, chunks, defs, nextChunkId };
}
