// Near-duplicate grouping used by the hover and Find Related Code.
import * as assert from 'assert';
import { codeLines, groupCopies, isDocFile, isMarkedCopy, isTestFile } from '../../extension/src/features/copies';

const body = ['def retrieve_timesteps(scheduler, steps=None):', '    """Returns the schedule."""', '    scheduler.set_timesteps(steps)', '    return scheduler.timesteps, steps'];

describe('copies', () => {
  it('groups chunks equal once comments and whitespace are dropped, keeping the unmarked original', () => {
    const items = [
      { id: 'copy1', text: ['# Copied from a.retrieve_timesteps', ...body].join('\n') },
      { id: 'other', text: 'def unrelated(x):\n    return x * 2\n' },
      { id: 'orig', text: body.join('\n') },
      { id: 'copy2', text: ['# Copied from a.retrieve_timesteps', ...body.map((l) => l.replace(/ {4}/, '  '))].join('\n') },
    ];
    const groups = groupCopies(items, (i) => i.text);
    assert.deepStrictEqual(groups.map((g) => [g.first.id, g.copies.map((c) => c.id)]), [['orig', ['copy1', 'copy2']], ['other', []]]);
  });

  it('groups chunks sharing nearly all lines, not chunks sharing a few', () => {
    const long = Array.from({ length: 10 }, (_, i) => `value_${i} = compute(${i})`);
    const nearly = [...long.slice(0, 9), 'value_9 = compute(90)'];
    const half = [...long.slice(0, 5), ...Array.from({ length: 5 }, (_, i) => `other_${i} = 0`)];
    const groups = groupCopies([long.join('\n'), nearly.join('\n'), half.join('\n')], (t) => t);
    assert.strictEqual(groups.length, 2);
    assert.strictEqual(groups[0].copies.length, 1);
  });

  it('short chunks are copies only when equal', () => {
    assert.strictEqual(groupCopies(['return a', 'return b'], (t) => t).length, 2);
    assert.strictEqual(groupCopies(['return a', '  return   a  \n// same'], (t) => t).length, 1);
  });

  it('tells code lines, copy notes, docs and tests apart', () => {
    assert.deepStrictEqual(codeLines('  // note\n\n  x  =  1\n# c\n…'), ['x = 1']);
    assert.ok(isMarkedCopy('# Copied from diffusers.pipelines.x\ndef f(): pass'));
    assert.ok(!isMarkedCopy('def f(): pass  # not copied from anywhere'));
    assert.ok(isDocFile('docs/guide.md') && isDocFile('README.rst') && !isDocFile('src/md.ts'));
    assert.ok(isTestFile('test/links.test.ts') && isTestFile('pkg/tests/test_x.py') && isTestFile('src/a.spec.tsx') && !isTestFile('src/testing.ts'));
  });
});
