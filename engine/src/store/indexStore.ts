// One index directory per workspace:
//   manifest.json   format version, model id, counts, and the sha256 of every other file (written last)
//   chunks.json     the file table (content hash, size, mtime, chunk ids) and chunk records
//                   (file, range, kind, name, signature, defines, calls) — no chunk text: a
//                   (file, range, hash) reference serves, the text is read from the file on demand
//   lexical.bin, lexical-doc.bin, lexical-norm.bin
//                   the BM25 fields: code, names/signatures/docs, normalised structure (bm25.ts format)
//   vectors/        the vector index (engine/src/vector, its own checksummed header)
// Every file is written atomically (temp + fsync + rename). The manifest is the commit point: a
// directory whose files do not match the manifest's digests is reported and rebuilt, never trusted.
import { createHash } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { Bm25Index } from '../lexical/bm25';
import { VectorIndex } from '../vector';
import { writeFileAtomic } from '../vector/persist';
import { LOCK_FILE_NAME } from './lock';
import type { ImportBinding } from '../types';
import type { DocInfo } from '../retrieve/hybrid';

/** Bump when the layout of chunks.json or the manifest changes; older indexes are rebuilt. */
export const STORE_FORMAT_VERSION = 3;

export interface StoredChunk extends DocInfo {
  signature?: string;
  /** sha1 of the chunk's lines, to check that the file still holds them before showing them. */
  hash: string;
}

export interface StoredFile {
  hash: string;
  size: number;
  mtimeMs: number;
  language?: string;
  chunkIds: number[];
  imports: ImportBinding[];
  /** The file's definitions as [name, signature, chunk id]: the call-graph table is rebuilt from these on load. */
  definitions: [string, string, number][];
}

export interface StoreData {
  files: Record<string, StoredFile>;
  chunks: StoredChunk[];
  nextChunkId: number;
}

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
}

/** The lexical fields and the file each is stored in. */
export const LEXICAL_FILES = { lexical: 'lexical.bin', docField: 'lexical-doc.bin', normalized: 'lexical-norm.bin' } as const;
export type LexicalFields = Record<keyof typeof LEXICAL_FILES, Bm25Index>;

export interface LoadedStore extends LexicalFields {
  data: StoreData;
  vectors?: VectorIndex;
}

const sha256 = (buf: Buffer | string) => createHash('sha256').update(buf).digest('hex');
export const sha1 = (text: string) => createHash('sha1').update(text).digest('hex');

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
    const missingFields = expect.fields.filter((f) => !(manifest.fields ?? []).includes(f));
    if (missingFields.length) return { error: `index was built without the ${missingFields.join(', ')} field(s) the settings now use` };
    if (manifest.modelId !== expect.modelId) return { error: `index was built with model ${manifest.modelId ?? 'none'}, now ${expect.modelId ?? 'none'}` };
    const read = (name: string): Buffer | string => {
      const p = path.join(this.dir, name);
      if (!fs.existsSync(p)) return `${name} is missing`;
      const buf = fs.readFileSync(p);
      if (sha256(buf) !== manifest.digests[name]) return `${name} does not match its checksum (corrupt or truncated)`;
      return buf;
    };
    const chunksBuf = read('chunks.json');
    if (typeof chunksBuf === 'string') return { error: chunksBuf };
    const fields: Partial<LexicalFields> = {};
    let data: StoreData;
    try {
      data = JSON.parse(chunksBuf.toString('utf8')) as StoreData;
      for (const [field, name] of Object.entries(LEXICAL_FILES) as [keyof LexicalFields, string][]) {
        const buf = read(name);
        if (typeof buf === 'string') return { error: buf };
        fields[field] = Bm25Index.deserialize(buf);
        if (fields[field]!.size !== data.chunks.length) return { error: `${name} holds ${fields[field]!.size} documents for ${data.chunks.length} chunks` };
      }
    } catch (e) {
      return { error: `index files are inconsistent (${(e as Error).message})` };
    }
    let vectors: VectorIndex | undefined;
    if (expect.modelId) {
      const v = VectorIndex.load(path.join(this.dir, 'vectors'), { dim: expect.dim, modelId: expect.modelId });
      if ('error' in v) return { error: `vector index: ${v.error}` };
      vectors = v;
      if (vectors.size !== data.chunks.length) return { error: `vector index holds ${vectors.size} vectors for ${data.chunks.length} chunks` };
    }
    return { data, ...(fields as LexicalFields), vectors };
  }

  save(data: StoreData, lexical: LexicalFields, vectors: VectorIndex | undefined, modelId: string | null, dim: number, fields: string[]): void {
    fs.mkdirSync(this.dir, { recursive: true });
    // Invalidate first: a crash between the writes below leaves a manifest that no longer matches.
    const manifestPath = path.join(this.dir, 'manifest.json');
    const chunksBuf = Buffer.from(JSON.stringify(data));
    const digests: Record<string, string> = { 'chunks.json': sha256(chunksBuf) };
    if (vectors) vectors.save(path.join(this.dir, 'vectors'));
    writeFileAtomic(path.join(this.dir, 'chunks.json'), chunksBuf);
    for (const [field, name] of Object.entries(LEXICAL_FILES) as [keyof LexicalFields, string][]) {
      const buf = lexical[field].serialize();
      writeFileAtomic(path.join(this.dir, name), buf);
      digests[name] = sha256(buf);
    }
    const manifest: Manifest = {
      format: STORE_FORMAT_VERSION,
      modelId,
      dim,
      files: Object.keys(data.files).length,
      chunks: data.chunks.length,
      savedAt: new Date().toISOString(),
      digests,
      fields,
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
