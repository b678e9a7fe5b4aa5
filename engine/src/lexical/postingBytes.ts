// Where a packed segment's postings bytes live: in memory (a segment built or merged in this
// process) or in the index file it was loaded from or saved to. A file-backed segment reads each
// queried term's byte range with one positional read into a reused buffer, so the postings (~46 MB
// at 100k files) sit in the OS page cache instead of this process's RSS, as the vector index's
// lists do (vector/ivfLists.ts).
import * as fs from 'fs';
import { readAt } from '../store/readAt';
import { removeScratch } from '../store/scratchFile';

/**
 * A read-only byte range. Views returned by `read` are valid until the next `read` on the same
 * source (a file source reuses one buffer).
 */
export interface PostingBytes {
  readonly length: number;
  /** Bytes [start, end); view index i is byte start + i. */
  read(start: number, end: number): Uint8Array;
  /** Copies [start, start + out.length) into `out` without touching the buffer `read` returns. */
  copyTo(out: Uint8Array, start: number): void;
  close(): void;
}

export class MemoryBytes implements PostingBytes {
  constructor(readonly bytes: Uint8Array) {}

  get length(): number {
    return this.bytes.length;
  }

  read(start: number, end: number): Uint8Array {
    return this.bytes.subarray(start, end);
  }

  copyTo(out: Uint8Array, start: number): void {
    out.set(this.bytes.subarray(start, start + out.length));
  }

  close(): void {
    /* nothing held */
  }
}

/**
 * A small read pulls in at least this much, so sequential passes over many short lists (a merge
 * decodes every term in order) cost one syscall per window instead of one per term; a query term
 * costs one read of its own range (plus at most this much).
 */
const MIN_READ = 4096;

/** Closes the files of segments that were dropped without `close()`. */
const openFiles = new FinalizationRegistry<number>((fd) => {
  try {
    fs.closeSync(fd);
  } catch {
    /* already closed */
  }
});

export class FileBytes implements PostingBytes {
  private fd: number;
  private buf = new Uint8Array(MIN_READ);
  /** The buffer holds the file's postings bytes [winStart, winEnd). */
  private winStart = 0;
  private winEnd = 0;

  /** Takes ownership of `fd`: the postings are its bytes [offset, offset + length). `scratch`: a merge's scratch file, removed on close. */
  constructor(fd: number, readonly path: string, readonly offset: number, readonly length: number, private readonly scratch = false) {
    this.fd = fd;
    openFiles.register(this, fd, this);
  }

  read(start: number, end: number): Uint8Array {
    if (start >= this.winStart && end <= this.winEnd) return this.buf.subarray(start - this.winStart, end - this.winStart);
    if (start < 0 || end > this.length || start > end) throw new Error(`${this.path}: postings read [${start}, ${end}) outside their ${this.length} bytes`);
    const len = Math.min(this.length - start, Math.max(end - start, MIN_READ));
    if (len > this.buf.length) this.buf = new Uint8Array(Math.max(len, Math.ceil(this.buf.length * 1.5)));
    this.winStart = this.winEnd = 0; // invalid until the read completes
    this.readFully(this.buf.subarray(0, len), start);
    this.winStart = start;
    this.winEnd = start + len;
    return this.buf.subarray(0, end - start);
  }

  copyTo(out: Uint8Array, start: number): void {
    if (start < 0 || start + out.length > this.length) throw new Error(`${this.path}: postings read outside their ${this.length} bytes`);
    this.readFully(out, start);
  }

  private readFully(out: Uint8Array, start: number): void {
    if (this.fd < 0) throw new Error(`${this.path}: lexical index used after close()`);
    const got = readAt(this.fd, out, this.offset + start);
    // The file is only ever replaced by a rename, never written in place: a short read means
    // it was truncated or damaged under us. Throw rather than score from stale bytes.
    if (got < out.length) throw new Error(`${this.path} ended early: ${got} of ${out.length} postings bytes at ${this.offset + start} (truncated while in use)`);
  }

  close(): void {
    if (this.fd < 0) return;
    openFiles.unregister(this);
    const fd = this.fd;
    this.fd = -1;
    this.winStart = this.winEnd = 0;
    fs.closeSync(fd);
    if (this.scratch) removeScratch(this.path);
  }
}
