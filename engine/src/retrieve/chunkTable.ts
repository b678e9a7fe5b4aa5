// The documents of a HybridIndex as typed-array columns, one row per document, rows in id order:
// ~34 bytes a chunk plus its strings once in a pool, where a DocInfo object with its own arrays and
// Map/Set entries cost several hundred (470k chunks: ~16 MB instead of ~300 MB). Rows are looked
// up by binary search over the id column; removed rows are tombstones until a compaction.
// Also answers what the index asks of its documents: who defines a name, what follows a document
// in its file (a per-file list linked through the rows, in line order).
import type { ChunkKind } from '../types';
import { BinaryReader, BinaryWriter, grow } from '../store/binary';
import { StringPool } from '../store/stringPool';
import type { DocInfo } from './hybrid';

const KINDS: readonly ChunkKind[] = ['function', 'method', 'class', 'class-header', 'type', 'module', 'window'];
const KIND_CODE = new Map(KINDS.map((k, i) => [k, i]));

/** How a row's `defines` is stored. */
const enum Defines {
  None = 0,
  /** Exactly the last segment of the name (`Class.method` -> `method`): nothing stored. */
  FromName = 1,
  /** Listed in `explicitDefines`. */
  Explicit = 2,
}

/** Definers of one name: a single id, or ids in insertion order (a Set once many). */
type Definers = number[] | Set<number>;
/** Beyond this many definers of one name, a Set keeps removals O(1). */
const DEFINERS_AS_ARRAY = 8;

const simpleName = (name: string) => name.slice(name.lastIndexOf('.') + 1);

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
  /** Defines enum, | 0x80 for a dead row. */
  private flags = new Uint8Array(0);
  /** First 8 bytes of the sha1 of the chunk's lines (0 when not given). */
  private hash = new Uint8Array(0);
  private readonly explicitDefines = new Map<number, number[]>();
  /** By path index: id of the file's first document in line order, or -1. */
  private fileHead = new Int32Array(0);
  /** By name index: the single definer's id, -1 for none, -2 for several (in `multiDefiners`). */
  private definer = new Int32Array(0);
  private readonly multiDefiners = new Map<number, Definers>();

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
    this.hash = grow(this.hash, cap * 8, used * 8);
  }

  private fileSlot(p: number): void {
    if (p >= this.fileHead.length) this.fileHead = grow(this.fileHead, p + 1, this.fileHead.length, -1);
  }

  private nameSlot(n: number): void {
    if (n >= this.definer.length) this.definer = grow(this.definer, n + 1, this.definer.length, -1);
  }

  /** The live row of `id`, or -1. */
  private rowOf(id: number): number {
    if (this.unsorted) this.compact();
    let lo = 0, hi = this.rows - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const v = this.ids[mid];
      if (v < id) lo = mid + 1;
      else if (v > id) hi = mid - 1;
      else return this.flags[mid] & 0x80 ? -1 : mid;
    }
    return -1;
  }

  has(id: number): boolean {
    return this.rowOf(id) >= 0;
  }

  /** Adds a document (its id must not be present). */
  add(info: DocInfo, contentHashHex?: string): void {
    if (this.rows > 0 && info.id <= this.ids[this.rows - 1]) this.unsorted = true;
    this.ensureRows(this.rows + 1);
    const r = this.rows++;
    this.live++;
    const p = this.paths.intern(info.file);
    this.fileSlot(p);
    this.ids[r] = info.id;
    this.file[r] = p;
    this.start[r] = info.startLine;
    this.end[r] = info.endLine;
    this.kind[r] = KIND_CODE.get(info.kind) ?? KINDS.indexOf('window');
    this.name[r] = info.name !== undefined ? this.names.intern(info.name) : -1;
    const defines = [...new Set(info.defines)];
    let flag = Defines.Explicit;
    if (!defines.length) flag = Defines.None;
    else if (defines.length === 1 && info.name !== undefined && simpleName(info.name) === defines[0]) flag = Defines.FromName;
    const defineIds = defines.map((d) => this.names.intern(d));
    if (flag === Defines.Explicit) this.explicitDefines.set(info.id, defineIds);
    this.flags[r] = flag;
    this.hash.fill(0, r * 8, r * 8 + 8);
    if (contentHashHex) this.hash.set(Buffer.from(contentHashHex.slice(0, 16), 'hex'), r * 8);
    for (const n of defineIds) this.addDefiner(n, info.id);
    this.linkInFile(p, info.id, info.startLine);
  }

  /** Removes a document; false when it was not there. */
  remove(id: number): boolean {
    const r = this.rowOf(id);
    if (r < 0) return false;
    for (const n of this.defineIdsOf(r)) this.removeDefiner(n, id);
    this.unlinkInFile(this.file[r], id);
    this.explicitDefines.delete(id);
    this.flags[r] |= 0x80;
    this.live--;
    if (this.rows - this.live > Math.max(1024, this.live / 4)) this.unsorted = true;
    return true;
  }

  private defineIdsOf(r: number): number[] {
    switch (this.flags[r] & 0x7f) {
      case Defines.None: return [];
      case Defines.FromName: return [this.names.find(simpleName(this.names.get(this.name[r])))];
      default: return this.explicitDefines.get(this.ids[r]) ?? [];
    }
  }

  private addDefiner(n: number, id: number): void {
    this.nameSlot(n);
    const cur = this.definer[n];
    if (cur === -1) this.definer[n] = id;
    else if (cur >= 0) {
      this.definer[n] = -2;
      this.multiDefiners.set(n, [cur, id]);
    } else {
      const list = this.multiDefiners.get(n)!;
      if (Array.isArray(list)) {
        if (list.length >= DEFINERS_AS_ARRAY) this.multiDefiners.set(n, new Set([...list, id]));
        else list.push(id);
      } else list.add(id);
    }
  }

  private removeDefiner(n: number, id: number): void {
    const cur = this.definer[n];
    if (cur === id) this.definer[n] = -1;
    else if (cur === -2) {
      const list = this.multiDefiners.get(n)!;
      if (Array.isArray(list)) {
        const i = list.indexOf(id);
        if (i >= 0) list.splice(i, 1);
        if (list.length === 1) {
          this.definer[n] = list[0];
          this.multiDefiners.delete(n);
        }
      } else {
        list.delete(id);
        if (list.size === 1) {
          this.definer[n] = list.values().next().value!;
          this.multiDefiners.delete(n);
        }
      }
    }
  }

  /** Ids of the documents defining `name`, in the order they were added; [] beyond `max`. */
  definersOf(name: string, max: number): number[] {
    const n = this.names.find(name);
    if (n < 0 || n >= this.definer.length) return [];
    const cur = this.definer[n];
    if (cur === -1) return [];
    if (cur >= 0) return [cur];
    const list = this.multiDefiners.get(n)!;
    const size = Array.isArray(list) ? list.length : list.size;
    return size <= max ? [...list] : [];
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
    for (let r = 0; r < this.rows; r++) if (!(this.flags[r] & 0x80)) order.push(r);
    order.sort((a, b) => this.ids[a] - this.ids[b]);
    const pick = <T extends Int32Array | Uint8Array>(col: T): T => {
      const out = new (col.constructor as new (n: number) => T)(Math.max(order.length, 16));
      order.forEach((r, i) => (out[i] = col[r]));
      return out;
    };
    const hash = new Uint8Array(Math.max(order.length, 16) * 8);
    order.forEach((r, i) => hash.set(this.hash.subarray(r * 8, r * 8 + 8), i * 8));
    this.ids = pick(this.ids);
    this.file = pick(this.file);
    this.start = pick(this.start);
    this.end = pick(this.end);
    this.name = pick(this.name);
    this.nextInFile = pick(this.nextInFile);
    this.kind = pick(this.kind);
    this.flags = pick(this.flags);
    this.hash = hash;
    this.rows = this.live = order.length;
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

  /** Line range and file path index of a document, for hot checks without decoding strings. */
  rangeOf(id: number): { pathIndex: number; startLine: number; endLine: number } | undefined {
    const r = this.rowOf(id);
    return r < 0 ? undefined : { pathIndex: this.file[r], startLine: this.start[r], endLine: this.end[r] };
  }

  /** The 16 hex digits of the chunk's content hash ('' when none was given). */
  contentHashOf(id: number): string | undefined {
    const r = this.rowOf(id);
    if (r < 0) return undefined;
    const hex = Buffer.from(this.hash.subarray(r * 8, r * 8 + 8)).toString('hex');
    return hex === '0000000000000000' ? '' : hex;
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
  *all(): IterableIterator<DocInfo> {
    if (this.unsorted) this.compact();
    for (let r = 0; r < this.rows; r++) if (!(this.flags[r] & 0x80)) yield this.infoAt(r);
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
    w.bytes(this.flags.subarray(0, n));
    w.bytes(this.hash.subarray(0, n * 8));
    const explicit = new Int32Array([...this.explicitDefines].flatMap(([id, names]) => [id, names.length, ...names]));
    w.bytes(explicit);
  }

  /** Reads rows written by `write`, re-deriving definers and per-file order (as adding them in id order would). */
  static read(r: BinaryReader, paths: StringPool, names: StringPool): ChunkTable {
    const t = new ChunkTable(paths, names);
    const n = r.u32();
    const ids = r.int32s(n), file = r.int32s(n), start = r.int32s(n), end = r.int32s(n), name = r.int32s(n);
    const kind = r.uint8s(n), flags = r.uint8s(n), hash = r.uint8s(n * 8);
    const explicit = r.int32s();
    const listed = new Map<number, number[]>();
    for (let i = 0; i < explicit.length;) {
      const id = explicit[i], k = explicit[i + 1];
      listed.set(id, Array.from(explicit.subarray(i + 2, i + 2 + k)));
      i += 2 + k;
    }
    for (let i = 0; i < n; i++) {
      if (i > 0 && ids[i] <= ids[i - 1]) throw new Error('chunk ids out of order');
      if (file[i] < 0 || file[i] >= paths.size || name[i] >= names.size || kind[i] >= KINDS.length || start[i] > end[i]) throw new Error(`chunk ${ids[i]} is malformed`);
      const defines = (flags[i] === Defines.Explicit ? listed.get(ids[i]) ?? [] : []).map((x) => names.get(x));
      const nm = name[i] >= 0 ? names.get(name[i]) : undefined;
      if (flags[i] === Defines.FromName && nm !== undefined) defines.push(simpleName(nm));
      const info: DocInfo = { id: ids[i], file: paths.get(file[i]), startLine: start[i], endLine: end[i], kind: KINDS[kind[i]], defines };
      if (nm !== undefined) info.name = nm;
      t.add(info, Buffer.from(hash.subarray(i * 8, i * 8 + 8)).toString('hex'));
    }
    return t;
  }
}
