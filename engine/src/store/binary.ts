// Little-endian section writer/reader for the index's binary tables (tables.bin). Typed-array
// columns are written 8-byte aligned so a reader could view them in place; this one copies them.

export class BinaryWriter {
  private readonly parts: Buffer[] = [];
  private length = 0;

  private push(buf: Buffer): void {
    this.parts.push(buf);
    this.length += buf.length;
  }

  u32(v: number): void {
    const b = Buffer.allocUnsafe(4);
    b.writeUInt32LE(v >>> 0);
    this.push(b);
  }

  f64(v: number): void {
    const b = Buffer.allocUnsafe(8);
    b.writeDoubleLE(v);
    this.push(b);
  }

  /** Byte length, then the bytes, padded to 8. */
  bytes(view: ArrayBufferView): void {
    const buf = Buffer.from(view.buffer, view.byteOffset, view.byteLength);
    this.u32(buf.length);
    this.pad();
    this.push(Buffer.from(buf)); // a copy: the caller's column may grow or change before the write
    this.pad();
  }

  private pad(): void {
    const rest = this.length % 8;
    if (rest) this.push(Buffer.alloc(8 - rest));
  }

  finish(): Buffer {
    return Buffer.concat(this.parts, this.length);
  }
}

export class BinaryReader {
  private offset = 0;
  constructor(private readonly buf: Buffer) {}

  private need(n: number): void {
    if (this.offset + n > this.buf.length) throw new Error(`truncated at byte ${this.offset} (needs ${n} more of ${this.buf.length})`);
  }

  u32(): number {
    this.need(4);
    const v = this.buf.readUInt32LE(this.offset);
    this.offset += 4;
    return v;
  }

  f64(): number {
    this.need(8);
    const v = this.buf.readDoubleLE(this.offset);
    this.offset += 8;
    return v;
  }

  private align(): void {
    this.offset = Math.ceil(this.offset / 8) * 8;
  }

  /** A copy of the next byte section (see BinaryWriter.bytes). */
  bytes(): Buffer<ArrayBuffer> {
    const n = this.u32();
    this.align();
    this.need(n);
    const out = Buffer.alloc(n);
    this.buf.copy(out, 0, this.offset, this.offset + n);
    this.offset += n;
    this.align();
    return out;
  }

  int32s(expect?: number): Int32Array<ArrayBuffer> {
    const b = this.bytes();
    if (b.length % 4 || (expect !== undefined && b.length !== expect * 4)) throw new Error(`an int32 column of ${b.length} bytes, expected ${expect ?? '?'} values`);
    return new Int32Array(b.buffer, b.byteOffset, b.length / 4);
  }

  uint8s(expect?: number): Uint8Array<ArrayBuffer> {
    const b = this.bytes();
    if (expect !== undefined && b.length !== expect) throw new Error(`a byte column of ${b.length} bytes, expected ${expect}`);
    return new Uint8Array(b.buffer, b.byteOffset, b.length);
  }

  float64s(expect?: number): Float64Array<ArrayBuffer> {
    const b = this.bytes();
    if (b.length % 8 || (expect !== undefined && b.length !== expect * 8)) throw new Error(`a float64 column of ${b.length} bytes, expected ${expect ?? '?'} values`);
    return new Float64Array(b.buffer, b.byteOffset, b.length / 8);
  }

  get done(): boolean {
    return this.offset >= this.buf.length;
  }
}

/** A typed array of at least `need` elements holding `old`'s first `used` (capacity grows by half). */
export function grow<T extends Int32Array | Uint8Array | Float64Array>(old: T, need: number, used: number, fill?: number): T {
  if (need <= old.length) return old;
  const cap = Math.max(need, Math.ceil(old.length * 1.5), 16);
  const next = new (old.constructor as new (n: number) => T)(cap);
  next.set(old.subarray(0, used));
  if (fill !== undefined) next.fill(fill, used);
  return next;
}
