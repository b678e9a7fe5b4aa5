// Little-endian section writer/reader for the index's binary tables (tables.bin). Typed-array
// columns are written 8-byte aligned so the reader views them in place: sections read once while
// the tables are rebuilt are never copied, and what a table keeps is copied once (`owned`), so the
// decoded buffer is freed after a load instead of being kept alive by a few of its columns.

export class BinaryWriter {
  private readonly chunks: Buffer[] = [];
  private length = 0;

  private push(buf: Buffer): void {
    this.chunks.push(buf);
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
    // A view, not a copy (at 100k files the copies of every column were a second tables image in
    // memory at each tables save): finish() or writing parts() runs before the caller's columns
    // can change, since every writer (tablesParts, encodeDelta) fills and uses it in one synchronous call.
    this.push(buf);
    this.pad();
  }

  private pad(): void {
    const rest = this.length % 8;
    if (rest) this.push(Buffer.alloc(8 - rest));
  }

  /** Bytes as they are, no length or padding (a file's magic). */
  raw(bytes: Buffer): void {
    this.push(bytes);
  }

  finish(): Buffer {
    return Buffer.concat(this.chunks, this.length);
  }

  /** What finish() would concatenate, to be written out piece by piece instead. */
  parts(): Buffer[] {
    return this.chunks;
  }
}

/**
 * A whole number stored as a double (BinaryWriter.f64), as V8's small integer when it fits. V8
 * keeps a number read as a double boxed, and numbers counted up from it stay boxed: chunk ids
 * allocated from a loaded `nextChunkId` deoptimized the search's hot functions at the first query
 * after the first update of a reopened index (docs/investigations/first-edit-query-wait.md).
 */
export function smallInteger(v: number): number {
  return v === (v | 0) ? v | 0 : v;
}

export class BinaryReader {
  private offset: number;
  private readonly buf: Buffer<ArrayBuffer>;
  /** `start`: where the sections begin (after a magic the caller checked), as the writer counted it. */
  constructor(buf: Buffer, start = 0) {
    this.buf = buf as Buffer<ArrayBuffer>; // never a SharedArrayBuffer here: file reads and zlib output
    this.offset = start;
  }

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

  /**
   * The next byte section (see BinaryWriter.bytes): a view on the reader's buffer. A caller that
   * keeps it copies it (`owned`), so the whole buffer is not kept alive for one section.
   */
  bytes(): Buffer<ArrayBuffer> {
    const n = this.u32();
    this.align();
    this.need(n);
    const out = this.buf.subarray(this.offset, this.offset + n);
    this.offset += n;
    this.align();
    return out;
  }

  /** The next section as bytes whose offset in their ArrayBuffer is a multiple of `align` (a copy only if the buffer's own offset is not). */
  private aligned(align: number): Buffer<ArrayBuffer> {
    const b = this.bytes();
    if (b.byteOffset % align === 0) return b;
    const copy = Buffer.alloc(b.length); // its own ArrayBuffer, offset 0
    b.copy(copy);
    return copy;
  }

  int32s(expect?: number): Int32Array<ArrayBuffer> {
    const b = this.aligned(4);
    if (b.length % 4 || (expect !== undefined && b.length !== expect * 4)) throw new Error(`an int32 column of ${b.length} bytes, expected ${expect ?? '?'} values`);
    return new Int32Array(b.buffer, b.byteOffset, b.length / 4);
  }

  uint8s(expect?: number): Uint8Array<ArrayBuffer> {
    const b = this.bytes();
    if (expect !== undefined && b.length !== expect) throw new Error(`a byte column of ${b.length} bytes, expected ${expect}`);
    return new Uint8Array(b.buffer, b.byteOffset, b.length);
  }

  float64s(expect?: number): Float64Array<ArrayBuffer> {
    const b = this.aligned(8);
    if (b.length % 8 || (expect !== undefined && b.length !== expect * 8)) throw new Error(`a float64 column of ${b.length} bytes, expected ${expect ?? '?'} values`);
    return new Float64Array(b.buffer, b.byteOffset, b.length / 8);
  }

  get done(): boolean {
    return this.offset >= this.buf.length;
  }
}

/** A copy of `view` in its own right-sized memory (for sections a table keeps after a load). */
export function owned<T extends Int32Array<ArrayBuffer> | Uint8Array<ArrayBuffer> | Float64Array<ArrayBuffer>>(view: T): T {
  return view.slice() as T;
}

/** A copy of `bytes` as a Buffer in its own memory (Buffer's `slice` would be a view). */
export function ownedBuffer(bytes: Buffer): Buffer<ArrayBuffer> {
  const copy = Buffer.allocUnsafeSlow(bytes.length);
  bytes.copy(copy);
  return copy;
}
