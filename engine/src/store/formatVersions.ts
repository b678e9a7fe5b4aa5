// The on-disk format versions of the local index, in one table. A component's layout change bumps
// its row and `store` together (the manifest's check rejects an old index before any file is
// read); test/unit/formatVersions.test.ts holds the history that makes a lone bump fail.

export const FORMAT_VERSIONS = {
  /**
   * The whole index (manifest, components, file names); older indexes are rebuilt.
   * 4: tables.bin (binary columns) replaces chunks.json.
   * 5: chunk rows lose the unused 8-byte content hash (3.5 MB of memory at 100k files).
   * 6: segments — base files per component plus delta segments, listed by the manifest.
   * 7: tables bases are not deflated (tables layout 2), so a save streams them from the columns.
   * 8: indexed text, signatures and docs have secrets replaced by `<redacted:rule>` (redact/).
   * 9: the vectors' files are named by sequence and listed in the manifest, not by their own header.
   */
  store: 9,
  /** `tables-<seq>.bin`: file, chunk and definition tables (index/tables.ts). */
  tables: 2,
  /** `delta-<seq>.bin`: a tables delta and each lexical field's (index/deltaFile.ts). */
  delta: 1,
  /** `lexical*-<seq>.bin`: a packed BM25 segment (lexical/bm25Format.ts). */
  bm25: 2,
  /** The vector files (vector/persist.ts; with IVF_MAGIC in vector/ivfLists.ts). */
  vectors: 2,
} as const;
