// On-disk pieces of a vector index: file names, format version and the header that vouches for
// the files (crash-safe writes and digests are store/atomic.ts).
import * as fs from 'fs';
import * as path from 'path';
import { sha256File, type FileDigest } from '../store/atomic';
import { FORMAT_VERSIONS } from '../store/formatVersions';

/** Bumped whenever the layout of any file below changes; older files are rebuilt, not migrated. */
export const FORMAT_VERSION = FORMAT_VERSIONS.vectors;
export const HEADER_FILE = 'vectors.json';
/** Inverted lists (ivfLists.ts layout); absent while the index is flat. */
export const LISTS_FILE = 'vectors.ivf';
/** Records added since the lists were built, then the u32 ids removed from the lists. */
export const PENDING_FILE = 'vectors.pending';
/** Files of format 1 (hnswlib graph + int8 copy), removed when a format-2 index is saved over them. */
export const LEGACY_FILES = ['vectors.i8', 'vectors.hnsw'];

/**
 * One saved state of a vector index: its files (names relative to its folder, with sizes and
 * digests) and the counts that check them. The index store keeps it in its manifest, the one
 * commit point of the whole index; a standalone save writes it into HEADER_FILE.
 */
export interface VectorCommit {
  kind: 'flat' | 'ivf';
  /** Live vectors. */
  count: number;
  space: 'cosine' | 'ip';
  /** Records in PENDING_FILE, and tombstone ids after them. */
  pending: number;
  tombstones: number;
  /** Live vectors the list centroids were trained for. */
  trainedFor: number;
  /** The lists file (ivf only) and the pending file, by role. */
  lists?: string;
  pendingFile: string;
  files: Record<string, FileDigest>;
}

/** A standalone save's header, written last: an index is only as valid as the header that vouches for its files. */
export interface IndexHeader extends VectorCommit {
  format: number;
  dim: number;
  modelId: string;
}

export function verifyFile(file: string, expected: FileDigest | undefined): string | undefined {
  if (!expected) return `vector index header does not describe ${path.basename(file)}`;
  if (!fs.existsSync(file)) return `${file} is missing`;
  const size = fs.statSync(file).size;
  if (size !== expected.bytes) return `${file} is ${size} bytes, expected ${expected.bytes} (truncated or overwritten)`;
  if (sha256File(file).sha256 !== expected.sha256) return `${file} fails its checksum (corrupted)`;
  return undefined;
}

export function checkHeader(h: IndexHeader): string | undefined {
  if (!h || typeof h !== 'object') return 'not an object';
  const ints: Array<keyof IndexHeader> = ['format', 'dim', 'count', 'pending', 'tombstones', 'trainedFor'];
  for (const key of ints) if (!Number.isInteger(h[key]) || (h[key] as number) < 0) return `${key} is not a non-negative integer`;
  if (h.dim < 1) return 'dim is 0';
  if (h.kind !== 'flat' && h.kind !== 'ivf') return `kind ${String(h.kind)}`;
  if (h.space !== 'cosine' && h.space !== 'ip') return `space ${String(h.space)}`;
  if (typeof h.modelId !== 'string') return 'modelId is not a string';
  if (!h.files || typeof h.files !== 'object') return 'files missing';
  return undefined;
}

export function definedOnly<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
