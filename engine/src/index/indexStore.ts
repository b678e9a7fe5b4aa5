// One index directory per workspace:
//   manifest.json   format version, model id, counts, and the sha256 of every other file (written last)
//   tables.bin      the engine's bookkeeping as binary columns (tables.ts): string pools (paths,
//                   names, signatures), the file table (hash, size, mtime), chunk rows (file, range,
//                   kind, name, defines, 8-byte content hash) and the definitions the call graph
//                   resolves against — no chunk text: the text is read from the file on demand
//   lexical.bin, lexical-doc.bin, lexical-norm.bin
//                   the BM25 fields: code, names/signatures/docs, normalised structure (bm25.ts format);
//                   a loaded index keeps each file open and reads its postings from it per query
//   vectors/        the vector index (engine/src/vector, its own checksummed header)
// Every file is written atomically (temp + fsync + rename). The manifest is the commit point: a
// directory whose files do not match the manifest's digests is reported and rebuilt, never trusted.
import { createHash } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { Bm25Index } from '../lexical/bm25';
import { VectorIndex } from '../vector';
import { writeFileAtomic } from '../store/atomic';
import { LOCK_FILE_NAME } from '../store/lock';
import { decodeTables, encodeTables, TABLES_FILE, type IndexTables } from './tables';

/**
 * Bump when the layout of tables.bin or the manifest changes; older indexes are rebuilt.
 * 4: tables.bin (binary columns) replaces chunks.json.
 * 5: chunk rows lose the unused 8-byte content hash (3.5 MB of memory at 100k files).
 */
export const STORE_FORMAT_VERSION = 5;

interface Manifest {
  format: number;
  modelId: string | null;
  dim: number;
  files: number;
  chunks: number;
  savedAt: string;
  digests: Record<string, string>;
  /** Optional lexical fields this index was built with (a config that needs another one rebuilds). */
  fields: string[];
  /**
   * Optional fields the settings asked for but the first build left out because the repository
   * was large (engine.ts, LARGE_REPO_FILES). Kept with the index so that reopening it, or the
   * repository crossing the threshold later, never flips the decision and forces a rebuild.
   */
  omittedForSize?: string[];
}

/** The lexical fields and the file each is stored in. */
export const LEXICAL_FILES = { lexical: 'lexical.bin', docField: 'lexical-doc.bin', normalized: 'lexical-norm.bin' } as const;
export type LexicalFields = Record<keyof typeof LEXICAL_FILES, Bm25Index>;

export interface LoadedStore extends LexicalFields {
  tables: IndexTables;
  vectors?: VectorIndex;
  /** Fields the first build left out for size (see Manifest.omittedForSize). */
  omittedForSize: string[];
}

const sha256 = (buf: Buffer | string) => createHash('sha256').update(buf).digest('hex');
export const sha1 = (text: string) => createHash('sha1').update(text).digest('hex');

/** Reads a whole open file into `into` (its size as stat'ed before); a reason if it changed size since. */
function readInto(fd: number, into: Buffer): Buffer | string {
  let got = 0;
  for (let n; got < into.length && (n = fs.readSync(fd, into, got, into.length - got, got)) > 0; ) got += n;
  if (got !== into.length || fs.fstatSync(fd).size !== into.length) return 'changed size while being read';
  return into;
}

export class IndexStore {
  constructor(readonly dir: string) {}

  /** Bytes on disk of everything in the index directory. */
  diskBytes(): number {
    let total = 0;
    const walk = (d: string) => {
      if (!fs.existsSync(d)) return;
      for (const e of fs.readdirSync(d, { withFileTypes: true })) {
        const p = path.join(d, e.name);
        if (e.isDirectory()) walk(p);
        else total += fs.statSync(p).size;
      }
    };
    walk(this.dir);
    return total;
  }

  /**
   * Loads the index, or says why it cannot be used (missing, old format, other model, corrupt,
   * truncated). The caller rebuilds on any `error`.
   */
  load(expect: { modelId: string | null; dim: number; fields: string[] }): LoadedStore | { error: string; missing?: boolean } {
    const manifestPath = path.join(this.dir, 'manifest.json');
    if (!fs.existsSync(manifestPath)) return { error: 'no index yet', missing: true };
    let manifest: Manifest;
    try {
      manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8')) as Manifest;
    } catch (e) {
      return { error: `manifest.json is unreadable (${(e as Error).message})` };
    }
    if (manifest.format !== STORE_FORMAT_VERSION) return { error: `index format ${manifest.format}, this version uses ${STORE_FORMAT_VERSION}` };
    const omittedForSize = manifest.omittedForSize ?? [];
    const missingFields = expect.fields.filter((f) => !(manifest.fields ?? []).includes(f) && !omittedForSize.includes(f));
    if (missingFields.length) return { error: `index was built without the ${missingFields.join(', ')} field(s) the settings now use` };
    if (manifest.modelId !== expect.modelId) return { error: `index was built with model ${manifest.modelId ?? 'none'}, now ${expect.modelId ?? 'none'}` };
    // Every file is read into one scratch buffer, sized for the largest: the decoders copy what
    // they keep, so the buffer is reused instead of each file's read (27 + 59 MB at 100k files)
    // piling up until the next GC.
    const names = [TABLES_FILE, ...Object.values(LEXICAL_FILES)];
    const sizes = new Map(names.map((name) => [name, fs.statSync(path.join(this.dir, name), { throwIfNoEntry: false })?.size ?? -1]));
    const scratch = Buffer.allocUnsafeSlow(Math.max(0, ...sizes.values()));
    /** Reads and checks a file; `use` gets its bytes and the open file, which it may keep (returning true). */
    const read = (name: string, use: (buf: Buffer, fd: number, file: string) => boolean): string | undefined => {
      const p = path.join(this.dir, name);
      const size = sizes.get(name)!;
      if (size < 0) return `${name} is missing`;
      let fd: number | undefined = fs.openSync(p, 'r');
      try {
        const buf = readInto(fd, scratch.subarray(0, size));
        if (typeof buf === 'string') return `${name} ${buf}`;
        if (sha256(buf) !== manifest.digests[name]) return `${name} does not match its checksum (corrupt or truncated)`;
        if (use(buf, fd, p)) fd = undefined;
        return undefined;
      } finally {
        if (fd !== undefined) fs.closeSync(fd);
      }
    };
    let tables: IndexTables | undefined;
    const fields: Partial<LexicalFields> = {};
    let vectors: VectorIndex | undefined;
    const fail = (error: string) => {
      for (const f of Object.values(fields)) f.close();
      vectors?.close();
      return { error };
    };
    try {
      const tablesError = read(TABLES_FILE, (buf) => ((tables = decodeTables(buf)), false));
      if (tablesError) return { error: tablesError };
      const chunkCount = tables!.chunks.size;
      for (const [field, name] of Object.entries(LEXICAL_FILES) as [keyof LexicalFields, string][]) {
        // The index keeps the file open and reads its postings from it; the scratch is reused.
        const problem = read(name, (buf, fd, file) => ((fields[field] = Bm25Index.deserialize(buf, { fd, path: file })), true));
        if (problem) return fail(problem);
        // Optional fields the index does not fill hold no documents.
        const filled = field === 'lexical' || (manifest.fields ?? []).includes(field);
        if (filled && fields[field]!.size !== chunkCount) return fail(`${name} holds ${fields[field]!.size} documents for ${chunkCount} chunks`);
      }
    } catch (e) {
      return fail(`index files are inconsistent (${(e as Error).message})`);
    }
    if (expect.modelId) {
      const v = VectorIndex.load(path.join(this.dir, 'vectors'), { dim: expect.dim, modelId: expect.modelId });
      if ('error' in v) return fail(`vector index: ${v.error}`);
      vectors = v;
      if (vectors.size !== tables!.chunks.size) return fail(`vector index holds ${vectors.size} vectors for ${tables!.chunks.size} chunks`);
    }
    return { tables: tables!, ...(fields as LexicalFields), vectors, omittedForSize };
  }

  save(
    tables: IndexTables, lexical: LexicalFields, vectors: VectorIndex | undefined, modelId: string | null, dim: number,
    fields: string[], omittedForSize: string[] = [],
  ): void {
    fs.mkdirSync(this.dir, { recursive: true });
    // Invalidate first: a crash between the writes below leaves a manifest that no longer matches.
    const manifestPath = path.join(this.dir, 'manifest.json');
    const tablesBuf = encodeTables(tables);
    const digests: Record<string, string> = { [TABLES_FILE]: sha256(tablesBuf) };
    if (vectors) vectors.save(path.join(this.dir, 'vectors'));
    writeFileAtomic(path.join(this.dir, TABLES_FILE), tablesBuf);
    for (const [field, name] of Object.entries(LEXICAL_FILES) as [keyof LexicalFields, string][]) {
      // Streams the file, then reads its postings from the new file.
      digests[name] = lexical[field].save(path.join(this.dir, name)).sha256;
    }
    const manifest: Manifest = {
      format: STORE_FORMAT_VERSION,
      modelId,
      dim,
      files: tables.files.count,
      chunks: tables.chunks.size,
      savedAt: new Date().toISOString(),
      digests,
      fields,
      ...(omittedForSize.length ? { omittedForSize } : {}),
    };
    writeFileAtomic(manifestPath, JSON.stringify(manifest, null, 1));
  }

  /** Removes every index file (before a rebuild), but not the writer lock. */
  clear(): void {
    if (!fs.existsSync(this.dir)) return;
    for (const name of fs.readdirSync(this.dir)) {
      if (name === LOCK_FILE_NAME) continue;
      fs.rmSync(path.join(this.dir, name), { recursive: true, force: true });
    }
  }
}
