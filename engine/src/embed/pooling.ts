// Pooling of token vectors into one text vector, and L2 normalisation.
import type { PoolingMode } from './modelFiles';

/**
 * Pools row `b` of a [batch, seq, dim] tensor, counting only positions whose mask is 1.
 * A text with no unmasked token pools to the zero vector.
 */
export function poolTokens(
  data: Float32Array,
  seq: number,
  dim: number,
  b: number,
  mask: ArrayLike<number | bigint>,
  mode: PoolingMode,
): Float32Array {
  const out = new Float32Array(dim);
  const rowBase = b * seq * dim;
  const maskAt = (t: number): boolean => Number(mask[b * seq + t]) !== 0;
  if (mode === 'cls') {
    out.set(data.subarray(rowBase, rowBase + dim));
    return out;
  }
  if (mode === 'lasttoken') {
    let last = -1;
    for (let t = 0; t < seq; t++) if (maskAt(t)) last = t;
    if (last >= 0) out.set(data.subarray(rowBase + last * dim, rowBase + (last + 1) * dim));
    return out;
  }
  let count = 0;
  if (mode === 'max') out.fill(-Infinity);
  for (let t = 0; t < seq; t++) {
    if (!maskAt(t)) continue;
    count++;
    const base = rowBase + t * dim;
    if (mode === 'max') for (let d = 0; d < dim; d++) out[d] = Math.max(out[d], data[base + d]);
    else for (let d = 0; d < dim; d++) out[d] += data[base + d];
  }
  if (count === 0) return new Float32Array(dim);
  if (mode === 'mean') for (let d = 0; d < dim; d++) out[d] /= count;
  return out;
}

/** Scales `v` to unit length in place; a zero vector stays zero. */
export function l2Normalise(v: Float32Array): Float32Array {
  let sum = 0;
  for (let i = 0; i < v.length; i++) sum += v[i] * v[i];
  if (sum > 0) {
    const inv = 1 / Math.sqrt(sum);
    for (let i = 0; i < v.length; i++) v[i] *= inv;
  }
  return v;
}
