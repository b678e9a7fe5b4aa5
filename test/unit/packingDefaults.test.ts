// The packing of a request (context/pack.ts packingFor): each option the request's, else the
// engine's RetrievalDefaults, else PACKING_DEFAULTS for the request's mode (freshNames: on by
// default when a budget is asked, the completion context's mode).
import * as assert from 'assert';
import { PACKING_DEFAULTS, packingFor } from '../../engine/src/context/pack';

describe('packing defaults', () => {
  it('a request without a budget packs in the plain mode, one with a budget in the fresh mode', () => {
    assert.deepStrictEqual(packingFor({}), { freshNames: false, ...PACKING_DEFAULTS.plain });
    assert.deepStrictEqual(packingFor({ budgetTokens: 1024 }), { freshNames: true, ...PACKING_DEFAULTS.fresh });
  });

  it('the modes differ where the completion context needs it', () => {
    assert.notStrictEqual(PACKING_DEFAULTS.fresh.maxLinesPerHit, PACKING_DEFAULTS.plain.maxLinesPerHit);
    assert.strictEqual(PACKING_DEFAULTS.plain.continuations, 0);
    assert.ok(PACKING_DEFAULTS.fresh.continuations > 0);
  });

  it("the request's option wins over the engine's default, which wins over the table", () => {
    const tuned = { maxLinesPerHit: 7, compact: false, novelty: 0.5 };
    const p = packingFor({ maxLinesPerHit: 12 }, tuned);
    assert.deepStrictEqual(p, { ...PACKING_DEFAULTS.plain, freshNames: false, maxLinesPerHit: 12, compact: false, novelty: 0.5 });
  });

  it('the mode follows freshNames as asked or as the engine defaults it, not only the budget', () => {
    assert.deepStrictEqual(packingFor({ budgetTokens: 512, freshNames: false }), { freshNames: false, ...PACKING_DEFAULTS.plain });
    assert.deepStrictEqual(packingFor({}, { freshNames: true }), { freshNames: true, ...PACKING_DEFAULTS.fresh });
    // An explicit 0 is an answer, not a gap: the table's 3 continuations do not come back.
    assert.strictEqual(packingFor({ budgetTokens: 512, continuations: 0 }).continuations, 0);
  });
});
