// The tables of a packed BM25 segment, apart from its postings bytes (packedPostings.ts).

/** A segment's per-document and per-term tables (everything but the postings bytes). */
export interface SegmentTables {
  /** External ids by slot, strictly ascending (so lookups are a binary search, not a Map). */
  ids: Int32Array;
  /** Document length (tokens) by slot. */
  lens: Uint32Array;
  /** Postings per term (dead slots included: deletions are tracked outside the segment). */
  df: Int32Array;
  /** First block of each term; blockStart[t + 1] is one past its last. */
  blockStart: Uint32Array;
  /** Last slot of each block. */
  blockLast: Uint32Array;
  /** Byte offset of each block in the postings bytes. */
  blockByte: Uint32Array;
  /** Largest tf and smallest document length (capped at 65535) of each term: a per-term score bound. */
  maxTf: Uint16Array;
  minLen: Uint16Array;
}
