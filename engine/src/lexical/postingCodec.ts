// How one posting is written: one varint v = gap * 2 + (tf === 1 ? 1 : 0), where gap is the slot
// after the term's previous posting (gaps run across the whole term), followed by a varint tf when
// tf > 1: most code terms occur once in a chunk, so the common posting is a single byte.

/** Slots must stay below this so that gap * 2 fits the 31-bit varint arithmetic of the hot loops. */
export const MAX_SLOTS = 2 ** 30;

/** Writes one posting (see the header) at b[p]; returns the position after it. */
export function putPosting(b: Uint8Array, p: number, gap: number, tf: number): number {
  let v = gap * 2 + (tf === 1 ? 1 : 0);
  while (v >= 128) { b[p++] = (v & 127) | 128; v = Math.floor(v / 128); }
  b[p++] = v;
  if (tf !== 1) {
    let f = tf;
    while (f >= 128) { b[p++] = (f & 127) | 128; f >>>= 7; }
    b[p++] = f;
  }
  return p;
}
