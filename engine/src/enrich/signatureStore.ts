// Definition signatures, deflated in blocks of BLOCK strings: the largest strings the engine keeps
// for every definition (~65 bytes each, ~35 MB at 100k files) are read only when a caller's chunk
// is enriched, so they are stored compressed (~4x smaller) and decoded a block at a time, with a
// few decoded blocks cached. Append-only; `compacted` drops the strings no definition uses.
import { deflateRawSync, inflateRawSync } from 'zlib';
import { BinaryReader, BinaryWriter } from '../store/binary';

/** Strings per compressed block. */
const BLOCK = 128;
/** Decoded blocks kept (enrichment of one file reads a few definitions, often of the same files). */
const CACHED_BLOCKS = 16;

export class SignatureStore {
  private readonly blocks: Buffer[] = [];
  /** The strings of the block being filled. */
  private open: string[] = [];
  private readonly cache = new Map<number, string[]>();

  get size(): number {
    return this.blocks.length * BLOCK + this.open.length;
  }

  add(s: string): number {
    const i = this.size;
    this.open.push(s);
    if (this.open.length === BLOCK) {
      this.blocks.push(deflateRawSync(Buffer.from(JSON.stringify(this.open))));
      this.open = [];
    }
    return i;
  }

  get(i: number): string {
    const b = Math.floor(i / BLOCK);
    if (b === this.blocks.length) return this.open[i % BLOCK];
    let strings = this.cache.get(b);
    if (strings) this.cache.delete(b);
    else strings = JSON.parse(inflateRawSync(this.blocks[b]).toString('utf8')) as string[];
    this.cache.set(b, strings);
    if (this.cache.size > CACHED_BLOCKS) this.cache.delete(this.cache.keys().next().value!);
    return strings[i % BLOCK];
  }

  /** Bytes held (compressed blocks and the open block's text). */
  get bytes(): number {
    return this.blocks.reduce((s, b) => s + b.length, 0) + this.open.reduce((s, x) => s + x.length, 0);
  }

  write(w: BinaryWriter): void {
    w.u32(this.blocks.length);
    for (const b of this.blocks) w.bytes(b);
    w.bytes(Buffer.from(JSON.stringify(this.open)));
  }

  static read(r: BinaryReader): SignatureStore {
    const store = new SignatureStore();
    const n = r.u32();
    // The blocks are views on one copy: thousands of small buffers would each be an allocation.
    const views: Buffer[] = [];
    for (let i = 0; i < n; i++) views.push(r.bytes());
    const all = Buffer.concat(views);
    for (let i = 0, o = 0; i < n; o += views[i].length, i++) store.blocks.push(all.subarray(o, o + views[i].length));
    const open = JSON.parse(r.bytes().toString('utf8')) as unknown;
    if (!Array.isArray(open) || open.length >= BLOCK || open.some((s) => typeof s !== 'string')) throw new Error('signature block malformed');
    store.open = open as string[];
    return store;
  }
}
