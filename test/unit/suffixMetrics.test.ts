// The E_suffix benchmark's own duplicated-suffix check (test/bench/suffixMetrics.ts): brackets in code
// only, each side of the cursor read after the prefix (a suggestion inside a docstring is no code).
import * as assert from 'assert';
import { duplicatesSuffix } from '../bench/suffixMetrics';

describe('E_suffix duplicated-suffix metric', () => {
  it('counts a closer the text after the cursor already has, in code', () => {
    assert.strictEqual(duplicatesSuffix('b=2)', 'x = f(\n    a=1,\n    ', '\n    c=3)\n', true), true);
    assert.strictEqual(duplicatesSuffix('b=2)', 'x = f(\n    a=1,\n    ', '\nprint(x)\n', true), false);
  });

  it('counts no bracket of a suggestion made inside a docstring (DEV perplexity.py: the exact target was counted)', () => {
    const prefix = 'def compute():\n    """Example:\n        >>> results = perplexity.compute(model_id="gpt2",\n        ';
    assert.strictEqual(duplicatesSuffix('...     predictions=input_texts)', prefix, '\n        >>> print(results)\n    """\n    return 1\n', true), false);
  });
});
