// Vectors of recently embedded chunk texts (by content hash), reused by single-file updates: while
// the user types in a file, each update re-embeds only the chunks that changed, and the save that
// follows re-embeds nothing.
import { sha1 } from '../index/indexStore';

/** Texts remembered; ~1 KB per vector at 256 dimensions. */
export const UPDATE_VECTOR_CACHE = 4096;

export class VectorReuse {
  private readonly cache = new Map<string, Float32Array>();

  constructor(private readonly capacity = UPDATE_VECTOR_CACHE) {}

  /** `texts` embedded, by `embed` for those not remembered; the least recently used are forgotten. */
  async embed(texts: string[], embed: (texts: string[]) => Promise<Float32Array[]>): Promise<Float32Array[]> {
    const keys = texts.map((t) => sha1(t));
    const out: Array<Float32Array | undefined> = keys.map((k) => this.cache.get(k));
    const missing = out.flatMap((v, i) => (v ? [] : [i]));
    if (missing.length) {
      const fresh = await embed(missing.map((i) => texts[i]));
      missing.forEach((i, j) => (out[i] = fresh[j]));
    }
    keys.forEach((k, i) => {
      this.cache.delete(k);
      this.cache.set(k, out[i]!);
    });
    while (this.cache.size > this.capacity) this.cache.delete(this.cache.keys().next().value!);
    return out as Float32Array[];
  }

  get size(): number {
    return this.cache.size;
  }
}
