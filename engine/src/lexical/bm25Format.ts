// On-disk form of a BM25 index: one packed segment (packedPostings.ts), written as
//
//   header (HEADER_BYTES): magic, version, k1, b, documents, terms, byte lengths of the six
//                          sections below, FNV-1a checksum of everything after the header
//   term lengths varint UTF-8 byte length of each term, by term id
//   term bytes   the terms' UTF-8 bytes, concatenated
//   ids          zigzag varint of the first id, then varint gaps (ids ascend)
//   lengths      varint document lengths, by slot
//   df           varint postings count, by term id
//   postings     the segment's postings, every term packed (packedPostings.ts encoding)
//
// The block table and score bounds are rebuilt on load from the postings, which also validates them.
// A segment loaded from (or saved to) a file then reads its postings from the file's postings
// section rather than holding them (postingBytes.ts).
import * as fs from 'fs';
import { PackedSegment } from './packedPostings';
import { TermDictionary } from './termDictionary';
import { FORMAT_VERSIONS } from '../store/formatVersions';
import { writePartsAtomic, type FileDigest } from '../store/atomic';
import { FileBytes } from './postingBytes';
import type { BaseSegment } from './baseSegment';

const FORMAT_MAGIC = 0x4d425252; // "RRBM"
/** Bump when the binary layout changes; older files are rejected and rebuilt. */
export const BM25_FORMAT_VERSION = FORMAT_VERSIONS.bm25;
const HEADER_BYTES = 60;
const SECTIONS = 6;

export interface Bm25Contents {
  k1: number;
  b: number;
  dict: TermDictionary;
  segment: PackedSegment;
}

/** Appends unsigned varints (any safe integer). */
class VarintWriter {
  private buf = Buffer.alloc(1 << 12);
  length = 0;

  push(v: number): void {
    if (this.length + 8 > this.buf.length) {
      const next = Buffer.alloc(this.buf.length * 2);
      this.buf.copy(next, 0, 0, this.length);
      this.buf = next;
    }
    while (v >= 128) {
      this.buf[this.length++] = (v % 128) | 128;
      v = Math.floor(v / 128);
    }
    this.buf[this.length++] = v;
  }

  bytes(): Buffer {
    return this.buf.subarray(0, this.length);
  }
}

class VarintReader {
  constructor(private readonly buf: Uint8Array, private pos: number, private readonly end: number, private readonly what: string) {}

  next(): number {
    let v = 0, scale = 1, c: number;
    do {
      if (this.pos >= this.end || scale > 2 ** 49) throw new Error(`lexical index corrupt: ${this.what} section malformed`);
      c = this.buf[this.pos++];
      v += (c & 127) * scale;
      scale *= 128;
    } while (c >= 128);
    return v;
  }

  expectEnd(): void {
    if (this.pos !== this.end) throw new Error(`lexical index corrupt: ${this.end - this.pos} bytes left in the ${this.what} section`);
  }
}

const FNV_INIT = 0x811c9dc5;

/** FNV-1a state `h` continued over bytes [start, end) (the checksum is the final state >>> 0). */
function fnv(h: number, buf: Uint8Array, start = 0, end = buf.length): number {
  for (let i = start; i < end; i++) h = Math.imul(h ^ buf[i], 0x01000193);
  return h;
}

/** An index file to be written, produced piece by piece (postings are not gathered in memory). */
export interface Bm25File {
  readonly length: number;
  /** Where the postings section starts in the file, and its length. */
  readonly postingsOffset: number;
  readonly postingsLength: number;
  /** The segment's block offsets in that section (for reading its postings from the file). */
  readonly blockByte: Uint32Array;
  /** The file's bytes in order; each piece is only valid until the next one is taken. */
  parts(): IterableIterator<Uint8Array>;
}

/**
 * The file for (dict, seg). The header's checksum covers the postings, so they are produced twice:
 * once here for the checksum and length, once by parts() (for a file-backed segment: two streaming
 * reads of its file; in memory: dense terms encoded twice).
 */
export function bm25File(k1: number, b: number, dict: TermDictionary, seg: PackedSegment): Bm25File {
  // The segment's terms are the dictionary's first nTerms (terms of later documents follow them).
  if (dict.size < seg.nTerms) throw new Error(`lexical index inconsistent: ${dict.size} terms, ${seg.nTerms} postings lists`);
  const vocab = dict.toBytes(seg.nTerms);
  const ids = new VarintWriter();
  if (seg.nDocs > 0) {
    const first = seg.ids[0];
    ids.push(first >= 0 ? first * 2 : -first * 2 - 1);
    for (let s = 1; s < seg.nDocs; s++) ids.push(seg.ids[s] - seg.ids[s - 1]);
  }
  const lens = new VarintWriter();
  for (let s = 0; s < seg.nDocs; s++) lens.push(seg.lens[s]);
  const df = new VarintWriter();
  for (let t = 0; t < seg.nTerms; t++) df.push(seg.df[t]);
  const sections: Uint8Array[] = [vocab.lengths, vocab.bytes, ids.bytes(), lens.bytes(), df.bytes()];
  let h = FNV_INIT;
  for (const s of sections) h = fnv(h, s);
  const blockByte = new Uint32Array(seg.blockByte.length);
  let postingsLength = 0;
  for (const piece of seg.encodedParts(blockByte)) {
    h = fnv(h, piece);
    postingsLength += piece.length;
  }
  const postingsOffset = HEADER_BYTES + sections.reduce((n, s) => n + s.length, 0);
  const header = Buffer.alloc(HEADER_BYTES);
  header.writeUInt32LE(FORMAT_MAGIC, 0);
  header.writeUInt32LE(BM25_FORMAT_VERSION, 4);
  header.writeDoubleLE(k1, 8);
  header.writeDoubleLE(b, 16);
  header.writeUInt32LE(seg.nDocs, 24);
  header.writeUInt32LE(seg.nTerms, 28);
  for (let i = 0; i < SECTIONS - 1; i++) header.writeUInt32LE(sections[i].length, 32 + 4 * i);
  header.writeUInt32LE(postingsLength, 32 + 4 * (SECTIONS - 1));
  header.writeUInt32LE(h >>> 0, 32 + 4 * SECTIONS);
  return {
    length: postingsOffset + postingsLength,
    postingsOffset,
    postingsLength,
    blockByte,
    * parts() {
      yield header;
      yield* sections;
      yield* seg.encodedParts(new Uint32Array(blockByte.length));
    },
  };
}

/** The whole file in one buffer. */
export function writeBm25(k1: number, b: number, dict: TermDictionary, seg: PackedSegment): Buffer {
  const file = bm25File(k1, b, dict, seg);
  const out = Buffer.alloc(file.length);
  let o = 0;
  for (const piece of file.parts()) {
    out.set(piece, o);
    o += piece.length;
  }
  if (o !== file.length) throw new Error(`lexical index inconsistent: wrote ${o} bytes, expected ${file.length}`);
  return out;
}

/**
 * Parses a whole file. With `file` (the open file `buf` was read from), the segment reads its
 * postings from it from now on and owns `file.fd` once this returns (not if it throws).
 */
export function readBm25(buf: Buffer, file?: { fd: number; path: string }): Bm25Contents {
  if (buf.length < 8) throw new Error(`lexical index truncated: ${buf.length} bytes`);
  if (buf.readUInt32LE(0) !== FORMAT_MAGIC) throw new Error('not a lexical index file (bad magic)');
  const version = buf.readUInt32LE(4);
  if (version !== BM25_FORMAT_VERSION) throw new Error(`lexical index format ${version}, expected ${BM25_FORMAT_VERSION}`);
  if (buf.length < HEADER_BYTES) throw new Error(`lexical index truncated: ${buf.length} bytes, header alone is ${HEADER_BYTES}`);
  const k1 = buf.readDoubleLE(8), b = buf.readDoubleLE(16);
  const nDocs = buf.readUInt32LE(24), nTerms = buf.readUInt32LE(28);
  const sizes = Array.from({ length: SECTIONS }, (_, i) => buf.readUInt32LE(32 + 4 * i));
  const total = HEADER_BYTES + sizes.reduce((n, s) => n + s, 0);
  if (buf.length < total) throw new Error(`lexical index truncated: ${buf.length} bytes, header declares ${total}`);
  if (buf.length > total) throw new Error(`lexical index has ${buf.length - total} trailing bytes`);
  if (fnv(FNV_INIT, buf, HEADER_BYTES, total) >>> 0 !== buf.readUInt32LE(32 + 4 * SECTIONS)) throw new Error('lexical index corrupt: checksum mismatch');
  if (!(k1 >= 0) || !(b >= 0 && b <= 1)) throw new Error(`lexical index corrupt: k1 ${k1}, b ${b}`);

  let o = HEADER_BYTES;
  const section = (i: number): [number, number] => {
    const start = o;
    o += sizes[i];
    return [start, o];
  };
  const [ls, le] = section(0);
  const [bs, be] = section(1);
  const dict = TermDictionary.fromBytes(nTerms, buf.subarray(ls, le), buf.subarray(bs, be));
  const ids = new Int32Array(nDocs);
  const idReader = new VarintReader(buf, ...section(2), 'ids');
  for (let s = 0; s < nDocs; s++) {
    const v = idReader.next();
    const id = s === 0 ? (v % 2 === 0 ? v / 2 : -(v + 1) / 2) : ids[s - 1] + v;
    if (id < -(2 ** 31) || id >= 2 ** 31 || (s > 0 && v === 0)) throw new Error(`lexical index corrupt: document id ${id}`);
    ids[s] = id;
  }
  idReader.expectEnd();
  const lens = new Uint32Array(nDocs);
  const lenReader = new VarintReader(buf, ...section(3), 'lengths');
  for (let s = 0; s < nDocs; s++) {
    const v = lenReader.next();
    if (v > 0xffffffff) throw new Error(`lexical index corrupt: document length ${v}`);
    lens[s] = v;
  }
  lenReader.expectEnd();
  const df = new Int32Array(nTerms);
  const dfReader = new VarintReader(buf, ...section(4), 'df');
  for (let t = 0; t < nTerms; t++) {
    const v = dfReader.next();
    if (v > nDocs) throw new Error(`lexical index corrupt: term ${t} has df ${v} of ${nDocs} documents`);
    df[t] = v;
  }
  dfReader.expectEnd();
  const [ps, pe] = section(5);
  // Borrowed: the segment never keeps the file buffer (it copies what it needs, or reads `file`).
  const postings = buf.subarray(ps, pe);
  const segment = PackedSegment.fromPostings(ids, lens, df, postings, { borrowed: true, file: file && { ...file, offset: ps } });
  return { k1, b, dict, segment };
}

/**
 * Writes `base`'s packed postings (and the dictionary's terms they use) to `file` atomically (temp
 * file, fsync, rename), streaming postings that are read from a file rather than loading them;
 * `reopen`: `base` reads its postings from the new `file` from then on. Returns the file's digest.
 */
export function saveBm25(file: string, k1: number, b: number, dict: TermDictionary, base: BaseSegment, reopen: boolean): FileDigest {
  const out = bm25File(k1, b, dict, base.packed);
  const digest = writePartsAtomic(file, out.parts());
  if (!reopen) return digest;
  const fd = fs.openSync(file, 'r');
  let source: FileBytes;
  try {
    const size = fs.fstatSync(fd).size;
    if (digest.bytes !== out.length || size !== out.length) throw new Error(`${file} holds ${size} bytes after saving ${out.length}`);
    source = new FileBytes(fd, file, out.postingsOffset, out.postingsLength);
  } catch (err) {
    fs.closeSync(fd);
    throw err;
  }
  base.reopen(source, out.blockByte);
  return digest;
}
