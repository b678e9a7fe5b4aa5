import * as assert from 'assert';
import { excerpt } from '../../engine/src/retrieve/excerpt';

describe('excerpt', () => {
  const fn = ['def train(model, loader):', '    """Train for one epoch."""', ...Array.from({ length: 30 }, (_, i) => `    step_${i} = run(${i})`), '    scheduler.step(optimizer)', '    return model'];

  it('keeps short chunks whole', () => {
    assert.strictEqual(excerpt(fn.slice(0, 5), new Set(), { maxLines: 10, compact: false }), fn.slice(0, 5).join('\n'));
  });

  it('keeps the declaration and the window that shares most with the query', () => {
    const out = excerpt(fn, new Set(['scheduler', 'optimizer']), { maxLines: 5, compact: false }).split('\n');
    assert.strictEqual(out.length, 5);
    assert.strictEqual(out[0], 'def train(model, loader):');
    assert.ok(out.includes('    scheduler.step(optimizer)'), out.join('\n'));
  });

  it('compact drops blank and comment-only lines but never the first line', () => {
    const out = excerpt(['// header', 'const a = 1;', '', '  // note', 'const b = 2;'], new Set(), { maxLines: 10, compact: true });
    assert.strictEqual(out, '// header\nconst a = 1;\nconst b = 2;');
  });
});
