// On-disk pieces of a vector index: int8 vector records, checksums and crash-safe file writes.
import { createHash } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';

/** Bumped whenever the layout of any file below changes; older files are rebuilt, not migrated. */
export const FORMAT_VERSION = 1;
export const HEADER_FILE = 'vectors.json';
export const VECTORS_FILE = 'vectors.i8';
export const GRAPH_FILE = 'vectors.hnsw';

export interface FileDigest {
  bytes: number;
  sha256: string;
}

/** Written last: an index is only as valid as the header that vouches for its files. */
export interface IndexHeader {
  format: number;
  kind: 'flat' | 'hnsw';
  dim: number;
  /** Live vectors. */
  count: number;
  modelId: string;
  space: 'cosine' | 'ip';
  m: number;
  efConstruction: number;
  files: Record<string, FileDigest>;
}

/**
 * Vector records: per vector `u32 id, f32 scale, dim × i8` (little endian), value = q * scale.
 * Symmetric per-vector int8 keeps cosine similarity within ~1e-4 of float32 at a quarter of
 * the bytes, so the graph can be rebuilt without re-embedding.
 */
export function encodeVectors(dim: number, entries: Iterable<[number, ArrayLike<number>]>, count: number): Buffer {
  const recordBytes = 8 + dim;
  const buf = Buffer.alloc(recordBytes * count);
  const bytes = new Int8Array(buf.buffer, buf.byteOffset, buf.length);
  let off = 0;
  for (const [id, vec] of entries) {
    let maxAbs = 0;
    for (let d = 0; d < dim; d++) maxAbs = Math.max(maxAbs, Math.abs(vec[d]));
    const scale = maxAbs > 0 ? maxAbs / 127 : 0;
    buf.writeUInt32LE(id, off);
    buf.writeFloatLE(scale, off + 4);
    if (scale > 0) for (let d = 0; d < dim; d++) bytes[off + 8 + d] = Math.round(vec[d] / scale);
    off += recordBytes;
  }
  if (off !== buf.length) throw new Error(`encodeVectors: expected ${count} vectors, got ${off / recordBytes}`);
  return buf;
}

export function* decodeVectors(dim: number, buf: Buffer): IterableIterator<[number, Float32Array]> {
  const recordBytes = 8 + dim;
  const bytes = new Int8Array(buf.buffer, buf.byteOffset, buf.length);
  for (let off = 0; off + recordBytes <= buf.length; off += recordBytes) {
    const id = buf.readUInt32LE(off);
    const scale = buf.readFloatLE(off + 4);
    const vec = new Float32Array(dim);
    for (let d = 0; d < dim; d++) vec[d] = bytes[off + 8 + d] * scale;
    yield [id, vec];
  }
}

export function sha256File(file: string): FileDigest {
  const hash = createHash('sha256');
  const fd = fs.openSync(file, 'r');
  const chunk = Buffer.alloc(1 << 20);
  let bytes = 0;
  try {
    for (let n; (n = fs.readSync(fd, chunk, 0, chunk.length, null)) > 0; bytes += n) hash.update(chunk.subarray(0, n));
  } finally {
    fs.closeSync(fd);
  }
  return { bytes, sha256: hash.digest('hex') };
}

/** Forces a file (or directory entry list) to stable storage. */
function fsyncPath(p: string): void {
  const fd = fs.openSync(p, 'r');
  try {
    fs.fsyncSync(fd);
  } catch (err) {
    // Some filesystems refuse fsync on directories; the data files themselves were synced.
    if ((err as NodeJS.ErrnoException).code !== 'EINVAL' && (err as NodeJS.ErrnoException).code !== 'EISDIR') throw err;
  } finally {
    fs.closeSync(fd);
  }
}

/** A temp path next to `target`, so the final rename stays on one filesystem. */
export function tempPathFor(target: string): string {
  return `${target}.tmp-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
}

/** Makes a fully written temp file durable and moves it over `target` in one step. */
export function commitTempFile(tmp: string, target: string): void {
  fsyncPath(tmp);
  fs.renameSync(tmp, target);
  fsyncPath(path.dirname(target));
}

export function writeFileAtomic(target: string, data: Buffer | string): void {
  const tmp = tempPathFor(target);
  try {
    fs.writeFileSync(tmp, data);
    commitTempFile(tmp, target);
  } catch (err) {
    fs.rmSync(tmp, { force: true });
    throw err;
  }
}
