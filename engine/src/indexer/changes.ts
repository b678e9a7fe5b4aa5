// Change detection for a scanned file (pure): size and mtime first, then, for a file read again,
// its content hash against the indexed one. A file whose bytes are not indexable (binary,
// generated, minified) is reported with the reason.
import { sha1 } from '../index/indexStore';
import { classifyContent } from '../scan';
import { decodeSource } from '../util/sourceText';
import type { FileEntry } from '../store/fileTable';
import type { SkipReason } from '../types';

/** What reading a file again found. */
export type ContentChange =
  | { kind: 'skip'; reason: SkipReason }
  /** Same content as indexed: only its mtime is new. */
  | { kind: 'touched' }
  | { kind: 'changed'; content: string; hash: string };

/** Whether size and mtime say the file is the one indexed, so it need not be read. */
export function statUnchanged(old: FileEntry | undefined, f: { size: number; mtimeMs: number }): boolean {
  return old !== undefined && old.size === f.size && old.mtimeMs === f.mtimeMs;
}

/** What a file's bytes say against its indexed row. */
export function contentChange(relPath: string, bytes: Buffer, old: FileEntry | undefined): ContentChange {
  const reason = classifyContent(relPath, bytes);
  if (reason) return { kind: 'skip', reason };
  const content = decodeSource(bytes);
  const hash = sha1(content);
  if (old && old.hash === hash) return { kind: 'touched' };
  return { kind: 'changed', content, hash };
}
