// A source file's bytes as the editor shows them. Every place that reads a file's text (the index,
// the line cache, symbol lookups, the CLI's --file) goes through `decodeSource`, so line numbers,
// columns and hashes agree wherever the text is read back.
//
// As VS Code: a BOM picks UTF-8, UTF-16LE or UTF-16BE and is not part of the text; otherwise UTF-8,
// invalid bytes decoded to U+FFFD (TextDecoder, not fatal) rather than the file dropped. A lone CR
// is a line break in the editor; it becomes LF here (same length, so columns and offsets stay the
// editor's) and tree-sitter, which counts only LF, numbers rows as the editor numbers lines.
import * as fs from 'node:fs';
import { TextDecoder } from 'node:util';
import { normalizeLoneCR } from './lines';

export type SourceEncoding = 'utf-8' | 'utf-16le' | 'utf-16be';

const decoders: Record<SourceEncoding, TextDecoder> = {
  'utf-8': new TextDecoder('utf-8'),
  'utf-16le': new TextDecoder('utf-16le'),
  'utf-16be': new TextDecoder('utf-16be'),
};

/** The encoding a byte-order mark names; UTF-8 without one. */
export function encodingOf(bytes: Uint8Array): SourceEncoding {
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  return 'utf-8';
}

/** Whether the bytes open with a UTF-16 byte-order mark (such text is full of NUL bytes, yet not binary). */
export function isUtf16(bytes: Uint8Array): boolean {
  return encodingOf(bytes) !== 'utf-8';
}

/** The text of a source file's bytes: BOM dropped, invalid bytes as U+FFFD, lone CRs as LF. */
export function decodeSource(bytes: Uint8Array): string {
  // TextDecoder drops the BOM of its own encoding (ignoreBOM is false by default).
  return normalizeLoneCR(decoders[encodingOf(bytes)].decode(bytes));
}

/** A file's text from disk, decoded as `decodeSource` does; throws as fs.readFileSync does. */
export function readSourceText(abs: string): string {
  return decodeSource(fs.readFileSync(abs));
}
