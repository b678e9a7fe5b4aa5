// The documents of a HybridIndex as typed-array columns, one row per document, rows in id order:
// 30 bytes a chunk and 20 per defined name, strings once in pools, where DocInfo objects with their
// arrays and Map/Set entries cost over a kilobyte a chunk with the engine's other copies. Rows are
// looked up by id (rowById.ts); removed rows are tombstones until a compaction.
// Also answers what the index asks of its documents: who defines a name, what follows a document
// in its file (a per-file list linked through the rows, in line order).
import type { ChunkKind } from '../types';
import { BinaryReader, BinaryWriter } from './binary';
import { grow } from './columns';
import { NOT_HELD, RowById } from './rowById';
import { StringPool } from './stringPool';

/** A document of the index: a chunk in the product, a fragment in the benchmark. */
export interface DocInfo {
  id: number;
  file: string;
  startLine: number;
  endLine: number;
  kind: ChunkKind;
  name?: string;
  /** Names this document defines (functions, classes, methods' simple names). */
  defines: string[];
}

const KINDS: readonly ChunkKind[] = ['function', 'method', 'class', 'class-header', 'type', 'module', 'window'];
const KIND_CODE = new Map(KINDS.map((k, i) => [k, i]));

const DEAD = 0x80;

export class ChunkTable {
  /** File paths; shared with the engine's file table. */
  readonly paths: StringPool;
  /** Chunk names and defined names; shared with the definition table. */
  readonly names: StringPool;
  private rows = 0;
  private live = 0;
  /** Set when an id arrived out of order or tombstones pile up: compact before the next lookup. */
  private unsorted = false;
  private ids = new Int32Array(0);
  private file = new Int32Array(0);
  private start = new Int32Array(0);
  private end = new Int32Array(0);
  private name = new Int32Array(0);
  /** Id of the next document of the same file in line order, or -1. */
  private nextInFile = new Int32Array(0);
  private kind = new Uint8Array(0);
  /** DEAD for a removed row. */
  private flags = new Uint8Array(0);
  /** Live rows by id (dead rows are not in it); ids it does not hold are searched in the id column. */
  private readonly byId = new RowById();
  /** The row's first define entry, or -1. */
  private firstDefine = new Int32Array(0);
  /** By path index: id of the file's first document in line order, or -1. */
  private fileHead = new Int32Array(0);
  /**
   * Define entries, one per (document, defined name): linked per name in the order documents were
   * added (so definers come out in that order, and leave in O(1)) and per document.
   */
  private entries = 0;
  private entryName = new Int32Array(0);
  private entryDoc = new Int32Array(0);
  private entryPrev = new Int32Array(0);
  private entryNext = new Int32Array(0);
  /** Next entry of the same document; for a free entry, the next free one. */
  private entryNextOfDoc = new Int32Array(0);
  private freeEntry = -1;
  /** By name index: first and last entry, and how many documents define it. */
  private nameHead = new Int32Array(0);
  private nameTail = new Int32Array(0);
  private nameCount = new Int32Array(0);

  constructor(paths = new StringPool(), names = new StringPool()) {
    this.paths = paths;
    this.names = names;
  }

  get size(): number {
    return this.live;
  }

  private ensureRows(n: number): void {
    if (n <= this.ids.length) return;
    const used = this.rows;
    this.ids = grow(this.ids, n, used);
    const cap = this.ids.length;
    this.file = grow(this.file, cap, used);
    this.start = grow(this.start, cap, used);
    this.end = grow(this.end, cap, used);
    this.name = grow(this.name, cap, used);
    this.nextInFile = grow(this.nextInFile, cap, used);
    this.kind = grow(this.kind, cap, used);
    this.flags = grow(this.flags, cap, used);
    this.firstDefine = grow(this.firstDefine, cap, used);
  }

  private fileSlot(p: number): void {
    if (p >= this.fileHead.length) this.fileHead = grow(this.fileHead, p + 1, this.fileHead.length, -1);
  }

  private nameSlot(n: number): void {
    if (n < this.nameHead.length) return;
    const used = this.nameHead.length;
    this.nameHead = grow(this.nameHead, n + 1, used, -1);
    this.nameTail = grow(this.nameTail, this.nameHead.length, used, -1);
    this.nameCount = grow(this.nameCount, this.nameHead.length, used, 0);
  }

  private newEntry(): number {
    if (this.freeEntry >= 0) {
      const e = this.freeEntry;
      this.freeEntry = this.entryNextOfDoc[e];
      return e;
    }
    const e = this.entries++;
    this.ensureEntries(e + 1);
    return e;
  }

  private ensureEntries(n: number): void {
    if (n <= this.entryName.length) return;
    const used = this.entries;
    this.entryName = grow(this.entryName, n, used);
    const cap = this.entryName.length;
    this.entryDoc = grow(this.entryDoc, cap, used);
    this.entryPrev = grow(this.entryPrev, cap, used);
    this.entryNext = grow(this.entryNext, cap, used);
    this.entryNextOfDoc = grow(this.entryNextOfDoc, cap, used);
  }

  /** The live row of `id`, or -1. */
  private rowOf(id: number): number {
    if (this.unsorted) this.compact();
    const held = this.byId.get(id);
    if (held !== NOT_HELD) return held;
    let lo = 0, hi = this.rows - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const v = this.ids[mid];
      if (v < id) lo = mid + 1;
      else if (v > id) hi = mid - 1;
      else return this.flags[mid] & DEAD ? -1 : mid;
    }
    return -1;
  }

  has(id: number): boolean {
    return this.rowOf(id) >= 0;
  }

  /** Adds a document (its id must not be present). */
  add(info: DocInfo): void {
    // Out of order: the row lookup in linkInFile below sorts the rows first.
    if (this.rows > 0 && info.id <= this.ids[this.rows - 1]) this.unsorted = true;
    this.ensureRows(this.rows + 1);
    const r = this.rows++;
    this.live++;
    const p = this.paths.intern(info.file);
    this.fileSlot(p);
    this.ids[r] = info.id;
    this.byId.set(info.id, r);
    this.file[r] = p;
    this.start[r] = info.startLine;
    this.end[r] = info.endLine;
    this.kind[r] = KIND_CODE.get(info.kind) ?? KINDS.indexOf('window');
    this.name[r] = info.name !== undefined ? this.names.intern(info.name) : -1;
    this.flags[r] = 0;
    // Entries are linked to the document in reverse; walking them reverses again.
    let first = -1;
    for (const d of [...new Set(info.defines)].reverse()) {
      const n = this.names.intern(d);
      this.nameSlot(n);
      const e = this.newEntry();
      this.entryName[e] = n;
      this.entryDoc[e] = info.id;
      this.entryNextOfDoc[e] = first;
      first = e;
      const tail = this.nameTail[n];
      this.entryPrev[e] = tail;
      this.entryNext[e] = -1;
      if (tail >= 0) this.entryNext[tail] = e;
      else this.nameHead[n] = e;
      this.nameTail[n] = e;
      this.nameCount[n]++;
    }
    this.firstDefine[r] = first;
    this.linkInFile(p, info.id, info.startLine);
  }

  /** Removes a document; false when it was not there. */
  remove(id: number): boolean {
    const r = this.rowOf(id);
    if (r < 0) return false;
    for (let e = this.firstDefine[r]; e >= 0;) {
      const n = this.entryName[e], prev = this.entryPrev[e], next = this.entryNext[e];
      if (prev >= 0) this.entryNext[prev] = next;
      else this.nameHead[n] = next;
      if (next >= 0) this.entryPrev[next] = prev;
      else this.nameTail[n] = prev;
      this.nameCount[n]--;
      const after = this.entryNextOfDoc[e];
      this.entryNextOfDoc[e] = this.freeEntry;
      this.freeEntry = e;
      e = after;
    }
    this.unlinkInFile(this.file[r], id);
    this.flags[r] |= DEAD;
    this.byId.delete(id);
    this.live--;
    if (this.rows - this.live > Math.max(1024, this.live / 4)) this.unsorted = true;
    return true;
  }

  private defineIdsOf(r: number): number[] {
    const out: number[] = [];
    for (let e = this.firstDefine[r]; e >= 0; e = this.entryNextOfDoc[e]) out.push(this.entryName[e]);
    return out;
  }

  /** Ids of the documents defining `name`, in the order they were added; [] beyond `max`. */
  definersOf(name: string, max: number): number[] {
    const n = this.names.find(name);
    if (n < 0 || n >= this.nameHead.length || this.nameCount[n] === 0 || this.nameCount[n] > max) return [];
    const out: number[] = [];
    for (let e = this.nameHead[n]; e >= 0; e = this.entryNext[e]) out.push(this.entryDoc[e]);
    return out;
  }

  /** Inserts after every document of the file that starts on or before `startLine`. */
  private linkInFile(p: number, id: number, startLine: number): void {
    let prev = -1;
    let cur = this.fileHead[p];
    while (cur >= 0) {
      const r = this.rowOf(cur);
      if (this.start[r] > startLine) break;
      prev = cur;
      cur = this.nextInFile[r];
    }
    // Rows first: a lookup may compact, replacing the column arrays.
    const row = this.rowOf(id);
    this.nextInFile[row] = cur;
    if (prev < 0) this.fileHead[p] = id;
    else {
      const prevRow = this.rowOf(prev);
      this.nextInFile[prevRow] = id;
    }
  }

  private unlinkInFile(p: number, id: number): void {
    const row = this.rowOf(id);
    const after = this.nextInFile[row];
    if (this.fileHead[p] === id) {
      this.fileHead[p] = after;
      return;
    }
    for (let cur = this.fileHead[p]; cur >= 0;) {
      const r = this.rowOf(cur);
      if (this.nextInFile[r] === id) {
        this.nextInFile[r] = after;
        return;
      }
      cur = this.nextInFile[r];
    }
  }

  /** Drops tombstones and puts rows back in id order (ids of re-added documents arrive out of order). */
  private compact(): void {
    this.unsorted = false;
    const order: number[] = [];
    for (let r = 0; r < this.rows; r++) if (!(this.flags[r] & DEAD)) order.push(r);
    order.sort((a, b) => this.ids[a] - this.ids[b]);
    const pick = <T extends Int32Array | Uint8Array>(col: T): T => {
      const out = new (col.constructor as new (n: number) => T)(Math.max(order.length, 16));
      order.forEach((r, i) => (out[i] = col[r]));
      return out;
    };
    this.ids = pick(this.ids);
    this.file = pick(this.file);
    this.start = pick(this.start);
    this.end = pick(this.end);
    this.name = pick(this.name);
    this.nextInFile = pick(this.nextInFile);
    this.kind = pick(this.kind);
    this.flags = pick(this.flags);
    this.firstDefine = pick(this.firstDefine);
    this.rows = this.live = order.length;
    this.byId.clear();
    for (let r = 0; r < this.rows; r++) this.byId.set(this.ids[r], r);
  }

  get(id: number): DocInfo | undefined {
    const r = this.rowOf(id);
    return r < 0 ? undefined : this.infoAt(r);
  }

  private infoAt(r: number): DocInfo {
    const info: DocInfo = {
      id: this.ids[r], file: this.paths.get(this.file[r]), startLine: this.start[r], endLine: this.end[r], kind: KINDS[this.kind[r]],
      defines: this.defineIdsOf(r).map((n) => this.names.get(n)),
    };
    if (this.name[r] >= 0) info.name = this.names.get(this.name[r]);
    return info;
  }

  /** The file of a document, or undefined (decodes one string; no DocInfo). */
  fileOf(id: number): string | undefined {
    const r = this.rowOf(id);
    return r < 0 ? undefined : this.paths.get(this.file[r]);
  }

  /**
   * Whether the document exists and lies outside lines from..to of the file with path index
   * `pathIndex` (the engine's filter of what the cursor already sees; no allocation, no decoding).
   */
  existsOutside(id: number, pathIndex: number, from: number, to: number): boolean {
    const r = this.rowOf(id);
    return r >= 0 && !(this.file[r] === pathIndex && this.end[r] >= from && this.start[r] <= to);
  }

  /** The document after `id` in its file (by start line), if any. */
  successorOf(id: number): DocInfo | undefined {
    const r = this.rowOf(id);
    if (r < 0) return undefined;
    const next = this.nextInFile[r];
    return next >= 0 ? this.get(next) : undefined;
  }

  /** Ids of a file's documents in line order. */
  idsOfFile(file: string): number[] {
    const p = this.paths.find(file);
    const out: number[] = [];
    if (p < 0 || p >= this.fileHead.length) return out;
    for (let cur = this.fileHead[p]; cur >= 0;) {
      out.push(cur);
      const row = this.rowOf(cur);
      cur = this.nextInFile[row];
    }
    return out;
  }

  /** Every live document in id order. */
  * all(): IterableIterator<DocInfo> {
    if (this.unsorted) this.compact();
    for (let r = 0; r < this.rows; r++) if (!(this.flags[r] & DEAD)) yield this.infoAt(r);
  }

  /** Writes the rows (the pools are written by the owner, which may share them). */
  write(w: BinaryWriter): void {
    this.compact();
    const n = this.rows;
    w.u32(n);
    w.bytes(this.ids.subarray(0, n));
    w.bytes(this.file.subarray(0, n));
    w.bytes(this.start.subarray(0, n));
    w.bytes(this.end.subarray(0, n));
    w.bytes(this.name.subarray(0, n));
    w.bytes(this.kind.subarray(0, n));
    // Defines: per row a count, then all rows' name indexes (typed from the start: a JS array of
    // them was tens of MB of garbage per tables save at 100k files).
    const counts = new Int32Array(n);
    let total = 0;
    for (let r = 0; r < n; r++) {
      for (let e = this.firstDefine[r]; e >= 0; e = this.entryNextOfDoc[e]) counts[r]++;
      total += counts[r];
    }
    const defined = new Int32Array(total);
    for (let r = 0, at = 0; r < n; r++) for (let e = this.firstDefine[r]; e >= 0; e = this.entryNextOfDoc[e]) defined[at++] = this.entryName[e];
    w.bytes(counts);
    w.bytes(defined);
  }

  /** Reads rows written by `write`, re-deriving definers and per-file order (as adding them in id order would). */
  static read(r: BinaryReader, paths: StringPool, names: StringPool): ChunkTable {
    const t = new ChunkTable(paths, names);
    const n = r.u32();
    const ids = r.int32s(n), file = r.int32s(n), start = r.int32s(n), end = r.int32s(n), name = r.int32s(n);
    const kind = r.uint8s(n);
    const counts = r.int32s(n), defined = r.int32s();
    // Sized exactly: a loaded table does not carry growth slack.
    t.ensureRows(n);
    t.ensureEntries(defined.length);
    let k = 0;
    for (let i = 0; i < n; i++) {
      if (i > 0 && ids[i] <= ids[i - 1]) throw new Error('chunk ids out of order');
      if (file[i] < 0 || file[i] >= paths.size || name[i] >= names.size || kind[i] >= KINDS.length || start[i] > end[i]) throw new Error(`chunk ${ids[i]} is malformed`);
      if (counts[i] < 0 || k + counts[i] > defined.length) throw new Error(`chunk ${ids[i]} defines more names than stored`);
      const defines: string[] = [];
      for (const x of defined.subarray(k, k + counts[i])) {
        if (x < 0 || x >= names.size) throw new Error(`chunk ${ids[i]} defines an unknown name`);
        defines.push(names.get(x));
      }
      k += counts[i];
      const info: DocInfo = { id: ids[i], file: paths.get(file[i]), startLine: start[i], endLine: end[i], kind: KINDS[kind[i]], defines };
      if (name[i] >= 0) info.name = names.get(name[i]);
      t.add(info);
    }
    return t;
  }
}
