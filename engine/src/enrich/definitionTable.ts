// Repository-wide table of definitions by simple name, as typed-array rows (~28 bytes a definition,
// names and paths once in pools, signatures deflated in blocks) instead of an object, a signature
// string and array slots each.
// Per name the rows form a doubly linked list in the order files were set, which is the order
// `lookup` returns and the callers' tie-breaks depend on.
import { BinaryReader, BinaryWriter } from '../store/binary';
import { grow } from '../store/columns';
import { StringPool } from '../store/stringPool';
import { SignatureStore } from './signatureStore';

/** Signatures no definition uses are dropped on save once they outnumber the used ones by this much. */
const DEAD_SIGNATURES_BEFORE_COMPACTION = 4096;

export interface DefinitionRef {
  name: string;
  file: string;
  signature: string;
  chunkId: number;
}

export class DefinitionTable {
  private rows = 0;
  /** Rows freed by removeFile, reused before new ones. */
  private free: number[] = [];
  private name = new Int32Array(0);
  private file = new Int32Array(0);
  private signature = new Int32Array(0);
  private chunkId = new Int32Array(0);
  private prevByName = new Int32Array(0);
  private nextByName = new Int32Array(0);
  private nextInFile = new Int32Array(0);
  /** By name index: first and last row, or -1. */
  private headByName = new Int32Array(0);
  private tailByName = new Int32Array(0);
  private countByName = new Int32Array(0);
  /** By path index: first row of the file's definitions, or -1; and when it was last set (save order). */
  private headByFile = new Int32Array(0);
  private setAt = new Float64Array(0);
  private clock = 0;
  private live = 0;

  constructor(
    readonly paths = new StringPool(),
    readonly names = new StringPool(),
    private signatures = new SignatureStore(),
  ) {}

  /** Definitions held. */
  get size(): number {
    return this.live;
  }

  /** Bytes of stored signatures (compressed). */
  get signatureBytes(): number {
    return this.signatures.bytes;
  }

  private newRow(): number {
    const r = this.free.pop();
    if (r !== undefined) return r;
    const n = this.rows++;
    this.ensureRows(n + 1);
    return n;
  }

  private ensureRows(need: number): void {
    if (need <= this.name.length) return;
    const n = this.rows;
    this.name = grow(this.name, need, n);
    const cap = this.name.length;
    this.file = grow(this.file, cap, n);
    this.signature = grow(this.signature, cap, n);
    this.chunkId = grow(this.chunkId, cap, n);
    this.prevByName = grow(this.prevByName, cap, n);
    this.nextByName = grow(this.nextByName, cap, n);
    this.nextInFile = grow(this.nextInFile, cap, n);
  }

  setFile(file: string, defs: readonly DefinitionRef[]): void {
    // A file is set twice per index (when parsed, then with chunk ids): its unchanged signatures
    // keep their stored copy instead of adding a second one.
    const previous = new Map<string, number[]>();
    const p = this.paths.find(file);
    if (p >= 0 && p < this.headByFile.length) {
      for (let r = this.headByFile[p]; r >= 0; r = this.nextInFile[r]) {
        const key = this.names.get(this.name[r]);
        const list = previous.get(key);
        if (list) list.push(this.signature[r]);
        else previous.set(key, [this.signature[r]]);
      }
    }
    this.insertFile(file, defs, (d) => {
      const list = previous.get(d.name);
      const i = list ? list.findIndex((at) => this.signatures.get(at) === d.signature) : -1;
      return i >= 0 ? list!.splice(i, 1)[0] : this.signatures.add(d.signature);
    });
  }

  /** `signatureOf` stores a definition's signature and says where. */
  private insertFile(file: string, defs: readonly Omit<DefinitionRef, 'signature'>[], signatureOf: (d: DefinitionRef, k: number) => number): void {
    this.removeFile(file);
    const p = this.paths.intern(file);
    if (p >= this.headByFile.length) {
      const old = this.headByFile.length;
      this.headByFile = grow(this.headByFile, p + 1, old, -1);
      this.setAt = grow(this.setAt, this.headByFile.length, old);
    }
    this.setAt[p] = ++this.clock;
    let last = -1;
    for (const [k, d] of defs.entries()) {
      const r = this.newRow();
      const n = this.names.intern(d.name);
      if (n >= this.headByName.length) {
        const old = this.headByName.length;
        this.headByName = grow(this.headByName, n + 1, old, -1);
        this.tailByName = grow(this.tailByName, this.headByName.length, old, -1);
        this.countByName = grow(this.countByName, this.headByName.length, old, 0);
      }
      this.name[r] = n;
      this.file[r] = p;
      this.signature[r] = signatureOf(d as DefinitionRef, k);
      this.live++;
      this.chunkId[r] = d.chunkId;
      const tail = this.tailByName[n];
      this.prevByName[r] = tail;
      this.nextByName[r] = -1;
      if (tail >= 0) this.nextByName[tail] = r;
      else this.headByName[n] = r;
      this.tailByName[n] = r;
      this.countByName[n]++;
      this.nextInFile[r] = -1;
      if (last >= 0) this.nextInFile[last] = r;
      else this.headByFile[p] = r;
      last = r;
    }
  }

  removeFile(file: string): void {
    const p = this.paths.find(file);
    if (p < 0 || p >= this.headByFile.length) return;
    for (let r = this.headByFile[p]; r >= 0; r = this.nextInFile[r]) {
      const n = this.name[r], prev = this.prevByName[r], next = this.nextByName[r];
      if (prev >= 0) this.nextByName[prev] = next;
      else this.headByName[n] = next;
      if (next >= 0) this.prevByName[next] = prev;
      else this.tailByName[n] = prev;
      this.countByName[n]--;
      this.free.push(r);
      this.live--;
    }
    this.headByFile[p] = -1;
  }

  /** The signature is decoded when read (most looked-up definitions are not chosen as callees). */
  private refAt(r: number): DefinitionRef {
    const signatures = this.signatures;
    const at = this.signature[r];
    let signature: string | undefined;
    return {
      name: this.names.get(this.name[r]), file: this.paths.get(this.file[r]), chunkId: this.chunkId[r],
      get signature() {
        return (signature ??= signatures.get(at));
      },
    };
  }

  /** How many definitions `name` has. */
  count(name: string): number {
    const n = this.names.find(name);
    return n >= 0 && n < this.countByName.length ? this.countByName[n] : 0;
  }

  /**
   * The first definition of `name` (in lookup order) whose file passes `accept`, or one in `inFile`
   * when given: a common name has thousands of definitions, so none is decoded until one matches.
   */
  first(name: string, accept: ((file: string) => boolean) | undefined, inFile?: string): DefinitionRef | undefined {
    const n = this.names.find(name);
    if (n < 0 || n >= this.headByName.length) return undefined;
    const p = inFile !== undefined ? this.paths.find(inFile) : -1;
    if (inFile !== undefined && p < 0) return undefined;
    for (let r = this.headByName[n]; r >= 0; r = this.nextByName[r]) {
      if (inFile !== undefined ? this.file[r] === p : !accept || accept(this.paths.get(this.file[r]))) return this.refAt(r);
    }
    return undefined;
  }

  lookup(name: string): readonly DefinitionRef[] {
    const n = this.names.find(name);
    if (n < 0 || n >= this.headByName.length) return [];
    const out: DefinitionRef[] = [];
    for (let r = this.headByName[n]; r >= 0; r = this.nextByName[r]) out.push(this.refAt(r));
    return out;
  }

  /** A file's definitions in the order they were set. */
  ofFile(file: string): DefinitionRef[] {
    const p = this.paths.find(file);
    const out: DefinitionRef[] = [];
    if (p < 0 || p >= this.headByFile.length) return out;
    for (let r = this.headByFile[p]; r >= 0; r = this.nextInFile[r]) out.push(this.refAt(r));
    return out;
  }

  /** Writes the signature pool and every file's rows, files in the order they were set (which `read` replays). */
  write(w: BinaryWriter): void {
    if (this.signatures.size - this.live > Math.max(DEAD_SIGNATURES_BEFORE_COMPACTION, this.live)) this.compactSignatures();
    this.signatures.write(w);
    const files: number[] = [];
    for (let p = 0; p < this.headByFile.length; p++) if (this.headByFile[p] >= 0) files.push(p);
    files.sort((a, b) => this.setAt[a] - this.setAt[b]);
    // Per file: path, row count, then (name, signature, chunk id) per row; typed from the start, as in ChunkTable.write.
    let rows = 0;
    for (const p of files) for (let r = this.headByFile[p]; r >= 0; r = this.nextInFile[r]) rows++;
    const out = new Int32Array(2 * files.length + 3 * rows);
    let at = 0;
    for (const p of files) {
      out[at++] = p;
      const countAt = at++;
      for (let r = this.headByFile[p]; r >= 0; r = this.nextInFile[r]) {
        out[countAt]++;
        out[at++] = this.name[r];
        out[at++] = this.signature[r];
        out[at++] = this.chunkId[r];
      }
    }
    w.u32(files.length);
    w.bytes(out);
  }

  /** Re-stores the signatures in use (edits leave old ones behind in the append-only store). */
  private compactSignatures(): void {
    const next = new SignatureStore();
    for (let p = 0; p < this.headByFile.length; p++) {
      for (let r = this.headByFile[p]; r >= 0; r = this.nextInFile[r]) this.signature[r] = next.add(this.signatures.get(this.signature[r]));
    }
    this.signatures = next;
  }

  static read(r: BinaryReader, paths: StringPool, names: StringPool): DefinitionTable {
    const signatures = SignatureStore.read(r);
    const t = new DefinitionTable(paths, names, signatures);
    const fileCount = r.u32();
    const rows = r.int32s();
    t.ensureRows((rows.length - 2 * fileCount) / 3); // sized exactly: no growth slack after a load
    let i = 0;
    const at = (k: number, pool: StringPool) => {
      if (k < 0 || k >= pool.size) throw new Error('a definition refers to a string the table lacks');
      return pool.get(k);
    };
    for (let f = 0; f < fileCount; f++) {
      if (i + 2 > rows.length) throw new Error('definition rows truncated');
      const file = at(rows[i], paths);
      const count = rows[i + 1];
      i += 2;
      if (i + count * 3 > rows.length) throw new Error('definition rows truncated');
      const defs: Omit<DefinitionRef, 'signature'>[] = [];
      const signatureIds: number[] = [];
      for (let k = 0; k < count; k++, i += 3) {
        if (rows[i + 1] < 0 || rows[i + 1] >= signatures.size) throw new Error('a definition refers to a signature the table lacks');
        defs.push({ name: at(rows[i], names), file, chunkId: rows[i + 2] });
        signatureIds.push(rows[i + 1]);
      }
      t.insertFile(file, defs, (_, k) => signatureIds[k]);
    }
    return t;
  }
}
