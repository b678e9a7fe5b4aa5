// Reading one commit of an index directory (manifest.ts): every base checked against its digest,
// the delta segments replayed in order, and the counts cross-checked; index/indexStore.ts owns the
// manifest and what follows. Also the read-only views of a commit that tests and benches use.
import { createHash } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { Bm25Index } from '../lexical/bm25';
import { VectorIndex } from '../vector';
import { readAt } from '../store/readAt';
import { decodeTables, type IndexTables } from './tables';
import { decodeDelta, type DeltaSegment } from './deltaFile';
import { applyTablesDelta } from './tablesDelta';
import { moveToEnd } from '../store/orderedSet';
import { COMPONENTS, LEXICAL_FILES, MANIFEST_FILE, parseManifest, VECTORS_DIR, type Component, type IndexExpectation, type LexicalField, type Manifest } from './manifest';

export type LexicalFields = Record<LexicalField, Bm25Index>;

export interface LoadedStore extends LexicalFields {
  tables: IndexTables;
  vectors?: VectorIndex;
  /** Fields the first build left out for size (see Manifest.omittedForSize). */
  omittedForSize: string[];
}

export const sha256 = (buf: Buffer | string) => createHash('sha256').update(buf).digest('hex');

/** Reads a whole open file into `into` (its size as stat'ed before); a reason if it changed size since. */
function readInto(fd: number, into: Buffer): Buffer | string {
  const got = readAt(fd, into, 0);
  if (got !== into.length || fs.fstatSync(fd).size !== into.length) return 'changed size while being read';
  return into;
}

/** Reads a commit's files, each checked against the manifest's digest. */
class CommitFiles {
  private readonly sizes: Map<string, number>;
  /**
   * Every base is read into one scratch buffer, sized for the largest: the decoders copy what
   * they keep, so the buffer is reused instead of each file's read (27 + 59 MB at 100k files)
   * piling up until the next GC.
   */
  readonly scratch: Buffer;

  constructor(private readonly dir: string, private readonly manifest: Manifest) {
    const names = COMPONENTS.map((c) => manifest.bases[c].file);
    this.sizes = new Map(names.map((name) => [name, fs.statSync(path.join(dir, name), { throwIfNoEntry: false })?.size ?? -1]));
    this.scratch = Buffer.allocUnsafeSlow(Math.max(0, ...this.sizes.values()));
  }

  /** Reads and checks a file; `use` gets its bytes and the open file, which it may keep (returning true). */
  read(name: string, use: (buf: Buffer, fd: number, file: string) => boolean, into?: Buffer): string | undefined {
    const p = path.join(this.dir, name);
    const size = into ? this.sizes.get(name)! : fs.statSync(p, { throwIfNoEntry: false })?.size ?? -1;
    if (size < 0) return `${name} is missing`;
    let fd: number | undefined = fs.openSync(p, 'r');
    try {
      const buf = readInto(fd, into ? into.subarray(0, size) : Buffer.allocUnsafe(size));
      if (typeof buf === 'string') return `${name} ${buf}`;
      if (sha256(buf) !== this.manifest.digests[name]) return `${name} does not match its checksum (corrupt or truncated)`;
      if (use(buf, fd, p)) fd = undefined;
      return undefined;
    } finally {
      if (fd !== undefined) fs.closeSync(fd);
    }
  }
}

/**
 * The index `manifest` describes in `dir`, with the files changed since the tables base (most
 * recent last); or why it cannot be used (a file missing, corrupt, truncated or inconsistent).
 */
export function readCommit(dir: string, manifest: Manifest, expect: IndexExpectation, mergeMinDocs: number | undefined): { store: LoadedStore; sinceBase: Set<string> } | { error: string } {
  const files = new CommitFiles(dir, manifest);
  let tables: IndexTables | undefined;
  const fields: Partial<LexicalFields> = {};
  let vectors: VectorIndex | undefined;
  const fail = (error: string) => {
    for (const f of Object.values(fields)) f.close();
    vectors?.close();
    return { error };
  };
  const sinceBase = new Set<string>();
  try {
    const tablesError = files.read(manifest.bases.tables.file, (buf) => ((tables = decodeTables(buf)), false), files.scratch);
    if (tablesError) return { error: tablesError };
    for (const field of Object.keys(LEXICAL_FILES) as LexicalField[]) {
      // The index keeps the file open and reads its postings from it; the scratch is reused.
      const name = manifest.bases[field].file;
      const problem = files.read(name, (buf, fd, file) => ((fields[field] = Bm25Index.deserialize(buf, { fd, path: file }, { mergeMinDocs })), true), files.scratch);
      if (problem) return fail(problem);
    }
    const problem = replayDeltas(files, manifest, tables!, fields as LexicalFields, sinceBase);
    if (problem) return fail(problem);
  } catch (e) {
    return fail(`index files are inconsistent (${(e as Error).message})`);
  }
  if (expect.modelId) {
    // The vectors of this commit, named by it: a vectors folder from another commit fails here.
    if (!manifest.vectors) return fail('the index holds no vectors, the model is on');
    const v = VectorIndex.open(path.join(dir, VECTORS_DIR), manifest.vectors, { dim: expect.dim, modelId: expect.modelId });
    if ('error' in v) return fail(`vector index: ${v.error}`);
    vectors = v;
    if (vectors.size !== tables!.chunks.size) return fail(`vector index holds ${vectors.size} vectors for ${tables!.chunks.size} chunks`);
  }
  return { store: { tables: tables!, ...(fields as LexicalFields), vectors, omittedForSize: manifest.omittedForSize ?? [] }, sinceBase };
}

/** Applies the manifest's delta segments to the bases, in order, and checks the counts; or says what is wrong. */
function replayDeltas(files: CommitFiles, manifest: Manifest, tables: IndexTables, fields: LexicalFields, sinceBase: Set<string>): string | undefined {
  for (const d of manifest.deltas) {
    let delta: DeltaSegment | undefined;
    const problem = files.read(d.file, (buf) => {
      delta = decodeDelta(buf, d.file);
      return false;
    });
    if (problem) return problem;
    if (delta!.seq !== d.seq) return `${d.file} holds save ${delta!.seq}, the manifest lists ${d.seq}`;
    if (delta!.tables && d.seq >= manifest.bases.tables.from) {
      applyTablesDelta(tables, delta!.tables);
      for (const f of delta!.tables.files) moveToEnd(sinceBase, f.rel);
    }
    for (const field of Object.keys(LEXICAL_FILES) as LexicalField[]) {
      const part = delta!.lexical[field];
      if (part && d.seq >= manifest.bases[field].from) fields[field].applyDelta(part);
    }
  }
  const chunkCount = tables.chunks.size;
  for (const field of Object.keys(LEXICAL_FILES) as LexicalField[]) {
    // Optional fields the index does not fill hold no documents.
    const filled = field === 'lexical' || (manifest.fields ?? []).includes(field);
    if (filled && fields[field].size !== chunkCount) return `the ${field} field holds ${fields[field].size} documents for ${chunkCount} chunks`;
  }
  return undefined;
}

/** The current file of each component and the delta segments, from a directory's manifest (tests, benches). */
export function committedFiles(dir: string): { bases: Record<Component, string>; deltas: string[] } {
  const m = parseManifest(fs.readFileSync(path.join(dir, MANIFEST_FILE), 'utf8'));
  if (typeof m === 'string') throw new Error(m);
  const bases = Object.fromEntries(COMPONENTS.map((c) => [c, m.bases[c].file])) as Record<Component, string>;
  return { bases, deltas: m.deltas.map((d) => d.file) };
}

/** The tables a directory's commit holds (its base and deltas; digests unchecked): tests and benches inspect them. */
export function readCommittedTables(dir: string): IndexTables {
  const m = parseManifest(fs.readFileSync(path.join(dir, MANIFEST_FILE), 'utf8'));
  if (typeof m === 'string') throw new Error(m);
  const tables = decodeTables(fs.readFileSync(path.join(dir, m.bases.tables.file)));
  for (const d of m.deltas) {
    const delta = decodeDelta(fs.readFileSync(path.join(dir, d.file)), d.file);
    if (delta.tables && d.seq >= m.bases.tables.from) applyTablesDelta(tables, delta.tables);
  }
  return tables;
}
