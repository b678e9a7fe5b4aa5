// Inverted lists: int8 records grouped by nearest centroid, in one buffer (while being built) or
// one file (once saved). A query scores the centroids (kept in memory, ~180 KB at 700 lists ×
// dim 256), then reads only its `nprobe` best lists with fs.readSync into the scorer's fixed
// buffer: the file's pages sit in the OS page cache, not in this process's heap or RSS.
//
// vectors.ivf layout (little endian):
//   magic "RRIVF002", u32 dim, u32 lists, u32 records, u32 0
//   lists × centroid record (records of id = list number, int8Kernel.ts layout)
//   (lists + 1) × u32 list start (record number; the last is `records`)
//   records × vector record, list by list
import { createHash } from 'crypto';
import * as fs from 'fs';
import { Int8Scorer, recordBytes } from './int8Kernel';
import { readAt } from '../store/readAt';
import { removeScratch, type ScratchFile } from '../store/scratchFile';

export const IVF_MAGIC = 'RRIVF002';
const PREFIX_BYTES = 24;

/** Closes list files of indexes that were dropped without `close()`. */
const openFiles = new FinalizationRegistry<number>((fd) => {
  try {
    fs.closeSync(fd);
  } catch {
    /* already closed */
  }
});

/** Where the records are: a buffer, or a file (the saved vectors.ivf, or a rebuild's scratch file, listSpill.ts). */
type Source = { kind: 'memory'; records: Buffer } | { kind: 'file'; fd: number; path: string; dataOffset: number; ino: number; scratch?: boolean };

export class IvfLists {
  readonly stride: number;
  /** Ids of all records, sorted, for membership tests (4 bytes per vector). */
  readonly sortedIds: Uint32Array;
  private source: Source;

  constructor(
    readonly dim: number,
    /** Centroid records, one per list. */
    readonly centroids: Buffer,
    /** Record number where each list starts; length lists + 1. */
    readonly starts: Uint32Array,
    source: Source,
    sortedIds: Uint32Array,
    /** Live vectors the centroids were trained for (a rebuild retrains when this drifts 2x). */
    readonly trainedFor: number,
  ) {
    this.stride = recordBytes(dim);
    this.source = source;
    this.sortedIds = sortedIds;
    if (source.kind === 'file') openFiles.register(this, source.fd, this);
  }

  get lists(): number {
    return this.starts.length - 1;
  }

  get count(): number {
    return this.starts[this.starts.length - 1];
  }

  /** The file the records are read from, if saved. */
  get file(): { path: string; ino: number } | undefined {
    return this.source.kind === 'file' ? { path: this.source.path, ino: this.source.ino } : undefined;
  }

  has(id: number): boolean {
    const ids = this.sortedIds;
    let lo = 0;
    let hi = ids.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const v = ids[mid];
      if (v === id) return true;
      if (v < id) lo = mid + 1;
      else hi = mid - 1;
    }
    return false;
  }

  /** The `nprobe` lists whose centroids score best for the scorer's current query. */
  bestLists(scorer: Int8Scorer, nprobe: number): number[] {
    const n = this.lists;
    const scores = new Float64Array(n);
    scorer.scoreRecords(this.centroids, 0, n, (i, s) => (scores[i] = s));
    const order = Array.from({ length: n }, (_, i) => i);
    order.sort((a, b) => scores[b] - scores[a]);
    return order.slice(0, Math.min(nprobe, n));
  }

  /**
   * Scores the records of `lists` against the scorer's current query; `visit(id, score)`.
   * Records pass through `scorer.batch` (read from the file, or copied from memory).
   */
  scan(scorer: Int8Scorer, lists: number[], visit: (id: number, score: number) => void): void {
    const { stride } = this;
    const batch = scorer.batch;
    for (const list of lists.slice().sort((a, b) => a - b)) {
      for (let at = this.starts[list], end = this.starts[list + 1]; at < end;) {
        const n = Math.min(scorer.batchRecords, end - at);
        this.readInto(batch, at, n);
        scorer.scoreBatch(n, (slot, score) => visit(batch.readUInt32LE(slot * stride), score));
        at += n;
      }
    }
  }

  /** Copies records [first, first + n) into `out` from offset 0. */
  readInto(out: Buffer, first: number, n: number): void {
    const bytes = n * this.stride;
    if (this.source.kind === 'memory') {
      this.source.records.copy(out, 0, first * this.stride, first * this.stride + bytes);
      return;
    }
    if (readAt(this.source.fd, out.subarray(0, bytes), this.source.dataOffset + first * this.stride) < bytes) {
      throw new Error(`${this.source.path} ended early (truncated while in use)`);
    }
  }

  /** The bytes of vectors.ivf for these lists, produced piece by piece (a piece is valid until the next is taken). */
  * fileParts(): IterableIterator<Buffer> {
    const prefix = Buffer.alloc(PREFIX_BYTES);
    prefix.write(IVF_MAGIC, 0, 'latin1');
    prefix.writeUInt32LE(this.dim, 8);
    prefix.writeUInt32LE(this.lists, 12);
    prefix.writeUInt32LE(this.count, 16);
    yield prefix;
    yield this.centroids;
    yield Buffer.from(this.starts.buffer, this.starts.byteOffset, this.starts.byteLength);
    // One buffer for every piece: a new one each was ~122 MB of garbage per save at 100k files.
    const chunk = 4096;
    const buf = Buffer.alloc(Math.min(chunk, this.count) * this.stride);
    for (let at = 0; at < this.count; at += chunk) {
      const n = Math.min(chunk, this.count - at);
      this.readInto(buf, at, n);
      yield buf.subarray(0, n * this.stride);
    }
  }

  /** Switches reads to the saved file (dropping an in-memory copy); closes a previous file. */
  useFile(path: string, fd: number): void {
    this.close();
    this.source = { kind: 'file', fd, path, dataOffset: dataOffset(this.dim, this.lists), ino: fs.fstatSync(fd).ino };
    openFiles.register(this, fd, this);
  }

  close(): void {
    if (this.source.kind !== 'file') return;
    openFiles.unregister(this);
    fs.closeSync(this.source.fd);
    if (this.source.scratch) removeScratch(this.source.path);
    this.source = { kind: 'memory', records: Buffer.alloc(0) };
  }

  /**
   * Opens a vectors.ivf written by `fileParts`, checking its sha256 and structure in one pass.
   * Returns the lists (reading from the file from now on) or the problem.
   */
  static open(file: string, dim: number, expect: { bytes: number; sha256: string }, trainedFor: number): IvfLists | string {
    let fd: number;
    try {
      fd = fs.openSync(file, 'r');
    } catch (err) {
      return `${file} cannot be opened: ${(err as Error).message}`;
    }
    const fail = (problem: string): string => {
      fs.closeSync(fd);
      return problem;
    };
    const size = fs.fstatSync(fd).size;
    if (size !== expect.bytes) return fail(`${file} is ${size} bytes, expected ${expect.bytes} (truncated or overwritten)`);
    if (size < PREFIX_BYTES) return fail(`${file} is too short`);
    const hash = createHash('sha256');
    // One reused read buffer: allocating per chunk leaves freed pages resident in the allocator.
    let scratch = Buffer.alloc(0);
    const read = (pos: number, len: number): Buffer => {
      if (scratch.length < len) scratch = Buffer.alloc(len);
      const buf = scratch.subarray(0, len);
      if (readAt(fd, buf, pos) < len) throw new Error(`${file} ended early`);
      hash.update(buf);
      return buf;
    };
    const stride = recordBytes(dim);
    const prefix = read(0, PREFIX_BYTES);
    const lists = prefix.readUInt32LE(12);
    const count = prefix.readUInt32LE(16);
    if (prefix.toString('latin1', 0, 8) !== IVF_MAGIC || prefix.readUInt32LE(8) !== dim) return fail(`${file} is not a dim-${dim} list file`);
    const offset = dataOffset(dim, lists);
    if (offset + count * stride !== size) {
      // Still hash the rest so a checksum failure is reported as such.
      return fail(`${file} has ${lists} lists / ${count} records that do not fit its ${size} bytes`);
    }
    const centroids = Buffer.from(read(PREFIX_BYTES, lists * stride));
    const startsBuf = read(PREFIX_BYTES + lists * stride, (lists + 1) * 4);
    const starts = new Uint32Array(lists + 1);
    for (let i = 0; i <= lists; i++) starts[i] = startsBuf.readUInt32LE(i * 4);
    const ids = new Uint32Array(count);
    const chunk = 4096;
    for (let at = 0; at < count; at += chunk) {
      const n = Math.min(chunk, count - at);
      const buf = read(offset + at * stride, n * stride);
      for (let i = 0; i < n; i++) ids[at + i] = buf.readUInt32LE(i * stride);
    }
    if (hash.digest('hex') !== expect.sha256) return fail(`${file} fails its checksum (corrupted)`);
    for (let i = 0; i < lists; i++) if (starts[i] > starts[i + 1]) return fail(`${file} has list starts out of order`);
    if (starts[0] !== 0 || starts[lists] !== count) return fail(`${file} list starts do not cover its ${count} records`);
    ids.sort();
    for (let i = 1; i < count; i++) if (ids[i] === ids[i - 1]) return fail(`${file} lists id ${ids[i]} twice`);
    const result = new IvfLists(dim, centroids, starts, { kind: 'memory', records: Buffer.alloc(0) }, ids, trainedFor);
    result.useFile(file, fd);
    return result;
  }
}

function dataOffset(dim: number, lists: number): number {
  return PREFIX_BYTES + lists * recordBytes(dim) + (lists + 1) * 4;
}

export function memorySource(records: Buffer): Source {
  return { kind: 'memory', records };
}

/** Records at the start of a scratch file (the lists own its descriptor from now on). */
export function scratchSource(file: ScratchFile): Source {
  return { kind: 'file', fd: file.fd, path: file.path, dataOffset: 0, ino: fs.fstatSync(file.fd).ino, scratch: true };
}
