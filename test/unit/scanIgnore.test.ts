// The ignore-rule stack: per-directory anchoring, precedence between files, overrides.
import * as assert from 'node:assert/strict';
import { IgnoreRules } from '../../engine/src/scan';

describe('IgnoreRules', () => {
  const root = IgnoreRules.root([]).withDirectory('', [['.gitignore', '*.log\n/build-out/\ndocs/*.md\n!docs/keep.md\n']]);

  it('anchors a leading-slash pattern at its own directory', () => {
    assert.equal(root.match('build-out', true).ignored, true);
    assert.equal(root.match('pkg/build-out', true).ignored, false);
    const pkg = root.withDirectory('pkg', [['.gitignore', '/gen/\n']]);
    assert.equal(pkg.match('pkg/gen', true).ignored, true);
    assert.equal(pkg.match('gen', true).ignored, false, 'a nested file says nothing about paths outside it');
    assert.equal(pkg.match('pkg/sub/gen', true).ignored, false);
  });

  it('anchors a pattern with an inner slash, and applies slash-free ones at every depth', () => {
    assert.equal(root.match('docs/a.md', false).ignored, true);
    assert.equal(root.match('pkg/docs/a.md', false).ignored, false);
    assert.equal(root.match('docs/keep.md', false).ignored, false);
    assert.equal(root.match('a/b/c/x.log', false).ignored, true);
  });

  it('treats a trailing-slash pattern as directories only', () => {
    const r = IgnoreRules.root([]).withDirectory('', [['.gitignore', 'cache/\n']]);
    assert.equal(r.match('cache', true).ignored, true);
    assert.equal(r.match('cache', false).ignored, false);
  });

  it('lets a deeper file re-include, and the deepest opinion win', () => {
    const sub = root.withDirectory('sub', [['.gitignore', '!trace.log\n']]);
    assert.equal(sub.match('sub/trace.log', false).ignored, false);
    assert.equal(sub.match('sub/other.log', false).ignored, true);
    const subsub = sub.withDirectory('sub/deeper', [['.gitignore', 'trace.log\n']]);
    assert.equal(subsub.match('sub/deeper/trace.log', false).ignored, true);
    assert.equal(subsub.match('sub/trace.log', false).ignored, false);
  });

  it('ranks .git/info/exclude < .gitignore < .reporecallignore < excludePatterns', () => {
    const r = IgnoreRules.root(['!forced.txt', 'secret-dir/']).withDirectory('', [
      ['.git/info/exclude', 'a.txt\nb.txt\nforced.txt\n'],
      ['.gitignore', '!a.txt\nc.txt\n'],
      ['.reporecallignore', '!c.txt\nd.txt\n'],
    ]);
    assert.equal(r.match('a.txt', false).ignored, false);
    assert.equal(r.match('b.txt', false).ignored, true);
    assert.equal(r.match('c.txt', false).ignored, false);
    assert.equal(r.match('d.txt', false).ignored, true);
    assert.equal(r.match('forced.txt', false).ignored, false);
    assert.deepEqual(r.match('secret-dir', true), { ignored: true, reason: 'excludePatterns: secret-dir/' });
  });

  it('ignores blank and comment-only files and reuses the parent rules', () => {
    assert.equal(root.withDirectory('x', [['.gitignore', '\n# nothing\n']]).match('x/a.log', false).ignored, true);
    assert.equal(root.withDirectory('x', [['.gitignore', '  \n']]), root);
  });

  it('never throws on odd names', () => {
    for (const name of ['with space.log', 'ünï.log', '日本.log', '#hash.log', '!bang.log', 'back\\slash.log']) {
      assert.equal(root.match(name, false).ignored, true, name);
    }
    assert.equal(root.match('..', false).ignored, false);
  });
});
