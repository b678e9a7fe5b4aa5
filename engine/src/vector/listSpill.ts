// A rebuild's new lists written list by list into a scratch file (store/scratchFile.ts) instead of
// one buffer of every record: at 100k files that buffer was ~122 MB, held beside the old lists
// while they were read, and until the next save (PARAMS.md, Vector index: LIST_SPILL_MIN).
import { discardScratch, openScratch, writeAt, type ScratchFile } from '../store/scratchFile';

/** Records buffered per list before one positional write. */
const RECORDS_PER_WRITE = 32;

export class ListSpill {
  private readonly file: ScratchFile;
  /** Next record number of each list (from its start). */
  private readonly cursor: Uint32Array;
  /** Records waiting per list: list l's at buffer[l * RECORDS_PER_WRITE * stride]. */
  private readonly buffer: Buffer;
  private readonly waiting: Uint16Array;

  constructor(private readonly stride: number, starts: Uint32Array) {
    const lists = starts.length - 1;
    this.cursor = starts.slice(0, lists);
    this.buffer = Buffer.alloc(lists * RECORDS_PER_WRITE * stride);
    this.waiting = new Uint16Array(lists);
    this.file = openScratch('vector-lists');
  }

  /** Appends the record at `buf[off]` to `list`. */
  put(list: number, buf: Buffer, off: number): void {
    const { stride } = this;
    const at = (list * RECORDS_PER_WRITE + this.waiting[list]) * stride;
    buf.copy(this.buffer, at, off, off + stride);
    if (++this.waiting[list] === RECORDS_PER_WRITE) this.write(list);
  }

  private write(list: number): void {
    const n = this.waiting[list];
    if (n === 0) return;
    const from = list * RECORDS_PER_WRITE * this.stride;
    try {
      writeAt(this.file.fd, this.buffer.subarray(from, from + n * this.stride), this.cursor[list] * this.stride);
    } catch (err) {
      this.abandon();
      throw err;
    }
    this.cursor[list] += n;
    this.waiting[list] = 0;
  }

  /** Writes what waits; returns the file, records list by list from offset 0 (the caller owns it now). */
  finish(): ScratchFile {
    for (let l = 0; l < this.waiting.length; l++) this.write(l);
    return this.file;
  }

  /** Closes and removes the file (a failed or discarded rebuild). */
  abandon(): void {
    discardScratch(this.file);
  }
}
