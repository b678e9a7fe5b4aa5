// The merge policy on synthetic component statistics: each decision at, below and above its thresholds.
import * as assert from 'assert';
import {
  foldDeltas, lexicalMergeDue, lexicalMergeForced, mergeAllAfterIndexing, tablesRebaseDue, vectorPendingLimit, vectorRebuildDueAtSave, vectorRebuildFlat, vectorRebuildOnRemove, vectorRetrainDue,
  LEXICAL_MERGE_MIN_DOCS, MAX_DELTAS, TABLES_REBASE_MIN_FILES,
} from '../../engine/src/store/mergePolicy';

describe('merge policy', () => {
  const min = LEXICAL_MERGE_MIN_DOCS;
  const lexical: Array<[string, { baseDocs: number; pendingDocs: number }, boolean, boolean]> = [
    // case, stats, background merge due, blocking merge forced
    ['fresh index, nothing pending', { baseDocs: 0, pendingDocs: 0 }, false, false],
    ['pending at the minimum', { baseDocs: 100_000, pendingDocs: min }, false, false],
    ['pending past the minimum', { baseDocs: 100_000, pendingDocs: min + 1 }, true, false],
    ['past twice the minimum, under an eighth of a large base', { baseDocs: 100_000, pendingDocs: 2 * min + 1 }, true, false],
    ['past twice the minimum and an eighth of the base', { baseDocs: 40_000, pendingDocs: 2 * min + 1 }, true, true],
    ['a cold build: no base yet, past twice the minimum', { baseDocs: 0, pendingDocs: 2 * min + 1 }, true, true],
    ['an eighth of a huge base', { baseDocs: 1_000_000, pendingDocs: 125_001 }, true, true],
  ];
  for (const [name, s, due, forced] of lexical) {
    it(`lexical: ${name}`, () => {
      assert.strictEqual(lexicalMergeDue({ ...s, minDocs: min }), due);
      assert.strictEqual(lexicalMergeForced({ ...s, minDocs: min }), forced);
    });
  }

  it('lexical: a test-lowered minimum moves both thresholds', () => {
    assert.strictEqual(lexicalMergeDue({ baseDocs: 0, pendingDocs: 17, minDocs: 16 }), true);
    assert.strictEqual(lexicalMergeForced({ baseDocs: 0, pendingDocs: 33, minDocs: 16 }), true);
    assert.strictEqual(lexicalMergeForced({ baseDocs: 0, pendingDocs: 32, minDocs: 16 }), false);
  });

  const limits: Array<[number | undefined, number, number]> = [
    // listed, flatThreshold, pending limit
    [undefined, 2048, 2048], // flat: rebuild into lists past the flat size
    [10_000, 2048, 2048], // 5% of 10k = 500 < the flat size
    [100_000, 2048, 5000],
    [1_000_000, 2048, 16384], // capped: an exact scan of the pending stays ~1.5 ms
  ];
  for (const [listed, flatThreshold, limit] of limits) {
    it(`vectors: pending limit ${limit} with ${listed ?? 'no'} listed`, () => {
      assert.strictEqual(vectorPendingLimit({ listed, flatThreshold }), limit);
    });
  }

  it('vectors: a remove rebuilds past a fifth tombstoned or back at half the flat size', () => {
    const base = { listed: 10_000, pending: 0, flatThreshold: 2048 };
    assert.strictEqual(vectorRebuildOnRemove({ ...base, tombstones: 2000, size: 8000 }), false);
    assert.strictEqual(vectorRebuildOnRemove({ ...base, tombstones: 2001, size: 7999 }), true);
    assert.strictEqual(vectorRebuildOnRemove({ ...base, tombstones: 10, size: 1024 }), true);
    assert.strictEqual(vectorRebuildOnRemove({ listed: undefined, pending: 0, flatThreshold: 2048, tombstones: 0, size: 10 }), false);
  });

  it('vectors: a save folds past 2% of the lists, never without lists', () => {
    assert.strictEqual(vectorRebuildDueAtSave({ listed: 10_000, pending: 150, tombstones: 50 }), false);
    assert.strictEqual(vectorRebuildDueAtSave({ listed: 10_000, pending: 150, tombstones: 51 }), true);
    assert.strictEqual(vectorRebuildDueAtSave({ listed: undefined, pending: 5000, tombstones: 0 }), false);
  });

  it('vectors: a rebuild goes flat at half the flat size, or within it before any lists', () => {
    assert.strictEqual(vectorRebuildFlat({ live: 1024, listed: 9000, flatThreshold: 2048 }), true);
    assert.strictEqual(vectorRebuildFlat({ live: 1025, listed: 9000, flatThreshold: 2048 }), false);
    assert.strictEqual(vectorRebuildFlat({ live: 2048, listed: undefined, flatThreshold: 2048 }), true);
    assert.strictEqual(vectorRebuildFlat({ live: 2049, listed: undefined, flatThreshold: 2048 }), false);
  });

  it('vectors: centroids are retrained without lists or past 2x growth or shrinkage', () => {
    assert.strictEqual(vectorRetrainDue({ live: 5000, trainedFor: undefined }), true);
    assert.strictEqual(vectorRetrainDue({ live: 20_000, trainedFor: 10_000 }), false);
    assert.strictEqual(vectorRetrainDue({ live: 20_001, trainedFor: 10_000 }), true);
    assert.strictEqual(vectorRetrainDue({ live: 5000, trainedFor: 10_000 }), false);
    assert.strictEqual(vectorRetrainDue({ live: 4999, trainedFor: 10_000 }), true);
  });

  it('indexing ends merged when an eighth of the files or more changed', () => {
    assert.strictEqual(mergeAllAfterIndexing({ changedFiles: 0, files: 0 }), false);
    assert.strictEqual(mergeAllAfterIndexing({ changedFiles: 125, files: 1000 }), true);
    assert.strictEqual(mergeAllAfterIndexing({ changedFiles: 124, files: 1000 }), false);
  });

  it('store: deltas fold when one more would pass the maximum', () => {
    assert.strictEqual(foldDeltas(MAX_DELTAS - 1), false);
    assert.strictEqual(foldDeltas(MAX_DELTAS), true);
    assert.strictEqual(foldDeltas(3, 4), false);
    assert.strictEqual(foldDeltas(4, 4), true);
  });

  const tables: Array<[number, number, boolean]> = [
    // changed since the base, files, rebase
    [TABLES_REBASE_MIN_FILES, 1000, false],
    [TABLES_REBASE_MIN_FILES + 1, 1000, true],
    [5000, 100_000, false], // an eighth of 100k is 12,500
    [12_501, 100_000, true],
  ];
  for (const [changedSinceBase, files, rebase] of tables) {
    it(`store: tables rebase ${rebase} with ${changedSinceBase} of ${files} files changed`, () => {
      assert.strictEqual(tablesRebaseDue({ changedSinceBase, files }), rebase);
    });
  }
});
