// Fetching one published segment into the sync folder (sync.ts): part by part into `<sha>.part`
// (so an interrupted download resumes at its first missing part), then the whole file's sha256
// is checked and only a match is renamed to `<sha>`: a file named by its digest is one whose
// bytes were verified. A mismatch deletes what was fetched and fetches it once more from the
// start; a second mismatch fails the sync and nothing is installed.
import * as fs from 'fs';
import * as path from 'path';
import type { Client } from 'pg';
import { sha256File } from '../store/atomic';
import { TeamIndexError } from './connection';
import { PART_BYTES } from './schema';
import { readPart } from './segmentStore';

export interface SegmentRef {
  sha256: string;
  bytes: number;
  parts: number;
}

/** The verified file of a segment in the sync folder (it may not exist yet). */
export const segmentPath = (dir: string, sha256: string) => path.join(dir, sha256);
const partialPath = (dir: string, sha256: string) => path.join(dir, `${sha256}.part`);

/** Parts of a segment already fetched by an earlier, interrupted download (whole parts only). */
export function resumableParts(dir: string, seg: SegmentRef): number {
  const size = fs.statSync(partialPath(dir, seg.sha256), { throwIfNoEntry: false })?.size ?? 0;
  return Math.min(Math.floor(size / PART_BYTES), seg.parts);
}

/** Appends parts from `from` on; `onBytes` is told each part's size as it lands. */
async function fetchParts(client: Client, repo: number, dir: string, seg: SegmentRef, from: number, onBytes: (n: number) => void): Promise<void> {
  const file = partialPath(dir, seg.sha256);
  // Whole parts only: a torn last write is cut off and fetched again.
  const fd = fs.openSync(file, fs.existsSync(file) ? 'r+' : 'w');
  try {
    fs.ftruncateSync(fd, from * PART_BYTES);
    for (let part = from; part < seg.parts; part++) {
      const data = await readPart(client, repo, seg.sha256, part);
      writeFully(fd, data, part * PART_BYTES);
      onBytes(data.length);
    }
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** Writes all of `data` at `pos`: a nearly full disk writes short before it fails with ENOSPC. */
function writeFully(fd: number, data: Buffer, pos: number): void {
  for (let done = 0; done < data.length;) done += fs.writeSync(fd, data, done, data.length - done, pos + done);
}

/**
 * Fetches a segment unless its verified file is there; resumes a partial one. Throws a
 * TeamIndexError when its bytes twice do not match its sha256; errors of the connection and the
 * disk (ENOSPC) propagate, leaving the parts fetched so far for the next sync.
 */
export async function fetchSegment(client: Client, repo: number, dir: string, seg: SegmentRef, onBytes: (n: number) => void): Promise<void> {
  const done = segmentPath(dir, seg.sha256);
  if (fs.existsSync(done)) return;
  for (let attempt = 0; attempt < 2; attempt++) {
    await fetchParts(client, repo, dir, seg, resumableParts(dir, seg), onBytes);
    const got = sha256File(partialPath(dir, seg.sha256));
    if (got.sha256 === seg.sha256 && got.bytes === seg.bytes) {
      fs.renameSync(partialPath(dir, seg.sha256), done);
      return;
    }
    fs.rmSync(partialPath(dir, seg.sha256), { force: true });
    onBytes(-got.bytes);
  }
  throw new TeamIndexError(`the team index's segment ${seg.sha256.slice(0, 12)} does not match its sha256 (fetched twice); the synced index was not installed`, 'server');
}
