// Parsed files waiting for their documents, kept in a temporary file instead of the heap. A full
// index parses every file before building any document (a chunk's enrichment resolves calls
// through the definitions of every file), and holding each ChunkedFile meanwhile grew the cold
// build's heap by ~7 KB a file (145 MB at 20k files; 2026-11-26-scale-coldmem-*.json).
import * as fs from 'fs';
import * as v8 from 'v8';
import * as path from 'path';
import type { ChunkedFile } from '../types';
import type { Chunker } from '../chunk';
import { readSourceText } from '../scan';
import { sha1 } from '../index/indexStore';
import { readAt } from '../store/readAt';
import { openScratch, removeScratch, writeAt } from '../store/scratchFile';

/** A file parsed and waiting for its documents. */
export interface Pending {
  rel: string;
  /** The text, for an unsaved buffer; files on disk are read again when they are added, so a
   *  cold index of a large workspace does not hold every file's text between parsing and embedding. */
  content?: string;
  hash: string;
  size: number;
  mtimeMs: number;
  /** The parse, or its id in the scan's ParsedSpill (a full index holds no parse in memory). */
  chunked: ChunkedFile | number;
  chunks: number;
}

export class ParsedSpill {
  private fd: number | undefined;
  private readonly file: string;
  private end = 0;
  /** Entry i is bytes [starts[i], starts[i] + lengths[i]) of the file. */
  private starts: number[] = [];
  private lengths: number[] = [];

  constructor(dir?: string) {
    // Unlinked while open where the platform allows it, so a crash leaves nothing behind (store/scratchFile.ts).
    const scratch = openScratch('parsed', dir);
    this.fd = scratch.fd;
    this.file = scratch.path;
  }

  /** Stores `chunked`; returns the id that `take` reads it back with. */
  put(chunked: ChunkedFile): number {
    if (this.fd === undefined) throw new Error('ParsedSpill used after close()');
    const buf = v8.serialize(chunked);
    writeAt(this.fd, buf, this.end);
    this.starts.push(this.end);
    this.lengths.push(buf.length);
    this.end += buf.length;
    return this.starts.length - 1;
  }

  /** The ChunkedFile stored as `id` (a fresh copy each call). */
  take(id: number): ChunkedFile {
    if (this.fd === undefined) throw new Error('ParsedSpill used after close()');
    const buf = Buffer.allocUnsafe(this.lengths[id]);
    if (readAt(this.fd, buf, this.starts[id]) < buf.length) throw new Error(`parsed-file spill ${this.file} is shorter than written`);
    return v8.deserialize(buf) as ChunkedFile;
  }

  get size(): number {
    return this.starts.length;
  }

  close(): void {
    if (this.fd === undefined) return;
    fs.closeSync(this.fd);
    this.fd = undefined;
    removeScratch(this.file);
  }
}

/**
 * A pending file's text and chunks as they are now: its parse (taken from `spill`), or when it was
 * parsed from disk, the file read again — parsed anew (`reparsed`, and `p.hash` updated) if it
 * changed since, 'gone' if it cannot be read.
 */
export async function currentText(p: Pending, spill: ParsedSpill | undefined, root: string, chunker: Chunker): Promise<{ content: string; chunked: ChunkedFile; reparsed: boolean } | 'gone'> {
  const chunked = typeof p.chunked === 'number' ? spill!.take(p.chunked) : p.chunked;
  if (p.content !== undefined) return { content: p.content, chunked, reparsed: false };
  let content: string;
  try {
    content = readSourceText(path.join(root, p.rel));
  } catch {
    return 'gone';
  }
  const hash = sha1(content);
  if (hash === p.hash) return { content, chunked, reparsed: false };
  p.hash = hash;
  return { content, chunked: await chunker.chunk(p.rel, content), reparsed: true };
}
