// The provider path's sums (test/bench/provider.ts): shares answered per budget, the recall of what
// was delivered (nothing delivered scores 0), tasks protocol C does not count, and the late list.
import * as assert from 'assert';
import { ProviderAcc, type ProviderTaskResult } from '../bench/provider';

function taskResult(answeredWithin: number[], delivered: string[], retrievalMs: number): ProviderTaskResult {
  const byBudget = new Map<number, { answered: boolean; full: boolean; delivered: string[] }>();
  for (const b of [7, 20, 50, 150]) {
    const answered = answeredWithin.includes(b);
    byBudget.set(b, { answered, full: answered, delivered: answered ? delivered : [] });
  }
  return { byBudget, unbounded: delivered, retrievalMs };
}

describe('bench provider path sums', () => {
  // Recall: 1 when the excerpt holds "def", 0 otherwise; undefined marks a task without a new identifier.
  const score = (snips: string[]) => (snips.some((s) => s.includes('def')) ? 1 : 0);

  it('counts a task answered late as answered nowhere before its budget, with recall 0 there, and lists it', () => {
    const acc = new ProviderAcc();
    acc.add(taskResult([7, 20, 50, 150], ['def a'], 4), score, 'fast');
    acc.add(taskResult([150], ['def b'], 120.04), score, 'slow');
    const out = acc.result() as Record<string, { answered: number; new_id_recall: number; n: number }> & { unbounded_new_id_recall: number; late: Record<string, { task: string; retrieval_ms: number }[]> };
    assert.deepStrictEqual([out['7'].answered, out['50'].answered, out['150'].answered], [0.5, 0.5, 1]);
    assert.strictEqual(out['20'].new_id_recall, 0.5);
    assert.strictEqual(out['150'].new_id_recall, 1);
    assert.strictEqual(out.unbounded_new_id_recall, 1);
    assert.deepStrictEqual(out.late['50'], [{ task: 'slow', retrieval_ms: 120 }]);
    assert.deepStrictEqual(out.late['150'], []);
  });

  it('leaves out a task protocol C does not count (no new identifier in the target)', () => {
    const acc = new ProviderAcc();
    acc.add(taskResult([], ['x'], 500), () => undefined, 'uncounted');
    const out = acc.result() as Record<string, { n: number }> & { late: Record<string, unknown[]> };
    assert.strictEqual(out['20'].n, 0);
    assert.deepStrictEqual(out.late['20'], []);
  });
});
