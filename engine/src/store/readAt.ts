// Positional reads of index files that must come back whole (postings, vector records, spilled
// parses): one loop over fs.readSync's partial reads, the short count left to the caller to name.
import * as fs from 'fs';

/** Reads `out.length` bytes at `position` of an open file; returns how many it got (fewer: the file ended first). */
export function readAt(fd: number, out: Uint8Array, position: number): number {
  let got = 0;
  for (let n; got < out.length && (n = fs.readSync(fd, out, got, out.length - got, position + got)) > 0;) got += n;
  return got;
}
