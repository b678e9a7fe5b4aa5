// Merges of the index's segments, run in slices so that queries wait at most one slice: the
// lexical fields' pending documents into new packed bases (bm25.ts mergeSteps), pending
// vectors into their lists (vectorIndex.ts rebuildAsync). A merge changes the index in memory
// only; the save after it commits the new bases with a new manifest (index/indexStore.ts), so a
// crash during a merge leaves the previous commit as it was. Policy: PARAMS.md (Index segments).
import type { HybridIndex } from '../retrieve/hybrid';
import { Breather } from '../util/breathe';

export class SegmentMerges {
  /** The merge running, if any. */
  private running: Promise<boolean> | undefined;
  private closed = false;

  constructor(
    /** Longest stretch of merge work between two turns of the event loop. */
    private readonly sliceMs: number,
    private readonly log: (line: string) => void,
  ) {}

  /** Whether a merge is due: a lexical field's pending documents past its minimum, or vectors a save would fold. */
  static due(index: HybridIndex): boolean {
    return index.lexicalFields.some((f) => f.saveMergeDue) || !!index.vectors?.rebuildDueAtSave;
  }

  /** Whether adding `more` documents would make a lexical field merge inside `add`, blocking queries for the whole merge. */
  static wouldMergeOnAdd(index: HybridIndex, more: number): boolean {
    return index.lexicalFields.some((f) => f.wouldMergeOnAdd(more));
  }

  /**
   * Whether a lexical field was merged into a base that is only in memory. A full index saves
   * then, so the base is written and its postings read from the file: the build's memory holds no
   * whole base (docs/investigations/cold-build-memory.md).
   */
  static baseUnwritten(index: HybridIndex): boolean {
    return index.lexicalFields.some((f) => f.baseUnwritten);
  }

  /**
   * Merges now (after any merge running): the fields due one, or with `'all'` every field with
   * pending documents (the end of a cold build, so the index it saves searches packed bases).
   * Returns whether anything was merged.
   */
  async run(index: HybridIndex, which: 'due' | 'all', signal?: AbortSignal): Promise<boolean> {
    await this.running?.catch(() => undefined);
    const breather = new Breather(this.sliceMs, signal);
    let merged = false;
    for (const field of index.lexicalFields) {
      if (field.mergeRunning || !(which === 'all' ? field.pendingDocs > 0 : field.saveMergeDue)) continue;
      await field.compactAsync(() => breather.breathe());
      merged = true;
    }
    // 'all' leaves no pending vectors either: each save rewrites the pending file whole (1.4 MB
    // after a 100k-file build left 5k pending: 2026-11-26-scale-100k-segments-step1.json).
    const vectors = index.vectors;
    if (vectors && (which === 'all' ? vectors.listsOutOfDate : vectors.rebuildDueAtSave)) {
      await vectors.rebuildAsync(() => breather.breathe());
      merged = true;
    }
    return merged;
  }

  /** Starts no more background merges (the index is closing). */
  close(): void {
    this.closed = true;
  }

  /** Starts a merge of what is due, unless one runs; `merged` is called when it changed the index. */
  background(index: HybridIndex, merged: () => void): void {
    if (this.closed || this.running || !SegmentMerges.due(index)) return;
    const t0 = performance.now();
    this.running = this.run(index, 'due');
    this.running
      .then((did) => {
        if (!did) return;
        this.log(`background merge done in ${(performance.now() - t0).toFixed(0)} ms`);
        merged();
      })
      // Closing the index ends a merge midway: not a failure.
      .catch((e) => this.closed || this.log(`background merge failed (the index stays as it was): ${(e as Error).message}`))
      .finally(() => (this.running = undefined));
  }
}
