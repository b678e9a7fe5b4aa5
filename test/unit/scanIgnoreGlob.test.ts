// gitignore lines against paths: the engine's decision next to git's own (`git check-ignore` in a
// temporary repository), for the shapes that make a backtracking matcher blow up and the ordinary
// ones around them.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createMatcher } from '../../engine/src/scan/ignoreRules';
import { parseGitignoreLine, ruleMatches } from '../../engine/src/scan/gitignoreGlob';
import { tempDir } from './tempDir';

const A255 = 'a'.repeat(255);
const deep = (n: number, leaf = 'f.txt') => [...Array.from({ length: n }, (_, i) => `d${i}`), leaf].join('/');

/**
 * [pattern, path, is the path a directory, expected decision, the line git is asked instead]. git's
 * own wildmatch backtracks on repeated `**` (14-fold against a 20-deep path: over 20 s), so for
 * those rows git answers the equivalent two-fold line: consecutive `**` are one in its semantics.
 */
const CASES: Array<[string, string, boolean, boolean, string?]> = [
  // repeated **/ (collapsed: consecutive **/ are one)
  ['**/'.repeat(14) + 'zz', deep(20), false, false, '**/**/zz'],
  ['**/'.repeat(14) + 'f.txt', deep(20), false, true, '**/**/f.txt'],
  ['d0/' + '**/'.repeat(12) + 'zz', deep(20), false, false, 'd0/**/**/zz'],
  ['d0/' + '**/'.repeat(12) + 'd19', deep(20), false, true, 'd0/**/**/d19'],
  ['d0/' + '**/*/'.repeat(6) + 'zz', deep(20), false, false, 'd0/' + '**/*/'.repeat(2) + 'zz'],
  ['d0/' + '**/*/'.repeat(6) + 'f.txt', deep(20), false, true, 'd0/' + '**/*/'.repeat(2) + 'f.txt'],
  ['d0/**/**', deep(3), false, true],
  ['d0/**', 'd0', true, false],
  ['d0/**/', deep(3), false, true],
  ['**', 'x/y.txt', false, true],
  ['**/d2', deep(4), false, true],
  ['**/x/**/y', deep(40, 'z'), false, false],
  ['d1/**/f.txt', deep(3), false, false],
  ['d0/**/f.txt', deep(3), false, true],
  ['d0/**/d1/f.txt', deep(2), false, true],
  // many stars in one segment
  ['*a'.repeat(8) + '*b', A255, false, false],
  ['*a'.repeat(8) + '*b', A255.slice(1) + 'b', false, true],
  ['*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*b', 'x/' + A255, false, false],
  ['a' + '*'.repeat(40) + 'b', 'a' + 'x'.repeat(200) + 'b', false, true],
  ['a**b', 'a/x/b', false, false],
  ['a***/b', 'ax/b', false, true],
  ['***/b', 'x/y/b', false, true],
  ['*.log', 'x/y/trace.log', false, true],
  ['*.log', 'x/y/trace.logs', false, false],
  ['/*.c', 'sub/cat.c', false, false],
  ['/*.c', 'cat.c', false, true],
  ['doc/*.md', 'doc/sub/a.md', false, false],
  // ? and character classes, long ones included
  ['f??.txt', 'foo.txt', false, true],
  ['f??.txt', 'fo.txt', false, false],
  ['[abc]x', 'bx', false, true],
  ['[!abc]x', 'bx', false, false],
  ['[^abc]x', 'dx', false, true],
  ['[a-c][a-c][a-c]', 'cab', false, true],
  ['[' + 'a-z'.repeat(300) + ']' + '[0-9]'.repeat(20), 'q' + '5'.repeat(20), false, true],
  ['[[:digit:]]x', '7x', false, true],
  ['[[:alpha:]]x', '7x', false, false],
  ['[]]x', ']x', false, true],
  ['[a-]x', '-x', false, true],
  ['[abc', 'a', false, false],
  ['x[/]y', 'x/y', false, false],
  // escapes, negation, comments, trailing spaces and slashes
  ['\\*.c', '*.c', false, true],
  ['\\*.c', 'a.c', false, false],
  ['\\#not-comment', '#not-comment', false, true],
  ['\\!bang', '!bang', false, true],
  ['trail\\ ', 'trail ', false, true],
  ['trail  ', 'trail', false, true],
  ['build/', 'build', true, true],
  ['build/ ', 'build', false, false],
  ['build/', 'build/out.o', false, true],
  ['a/b', 'x/a/b', false, false],
  ['a/b', 'a/b', false, true],
];

function gitAvailable(): boolean {
  return spawnSync('git', ['--version']).status === 0;
}

/** git's verdicts for one pattern over paths made real in a fresh repository. */
function gitDecisions(pattern: string, paths: Array<[string, boolean]>): boolean[] {
  const repo = tempDir('reporecall-gitignore-');
  try {
    const git = (args: string[], input?: string) => spawnSync('git', ['-c', 'core.ignorecase=false', ...args], { cwd: repo, input, encoding: 'utf8', timeout: 10_000 });
    assert.equal(git(['init', '-q']).status, 0);
    fs.writeFileSync(path.join(repo, '.gitignore'), pattern + '\n');
    for (const [p, isDir] of paths) {
      const abs = path.join(repo, p);
      if (isDir) fs.mkdirSync(abs, { recursive: true });
      else {
        fs.mkdirSync(path.dirname(abs), { recursive: true });
        fs.writeFileSync(abs, '');
      }
    }
    const out = git(['check-ignore', '--no-index', '--stdin', '-z'], paths.map(([p]) => p + '\0').join(''));
    assert.ok(out.status === 0 || out.status === 1, `git check-ignore failed on ${JSON.stringify(pattern)}: ${out.stderr}${out.error?.message ?? ''}`);
    const ignored = new Set(out.stdout.split('\0').filter(Boolean));
    return paths.map(([p]) => ignored.has(p));
  } finally {
    fs.rmSync(repo, { recursive: true, force: true });
  }
}

describe('gitignore lines (linear matcher)', function () {
  // A hang detector for the pathological rows, not a performance assertion.
  this.timeout(20_000);

  it('decides every row as expected, in time, and as git does', function () {
    const byPattern = new Map<string, Array<[string, boolean, boolean]>>();
    for (const [pattern, p, isDir, expected, askGit] of CASES) {
      const rules = createMatcher([pattern]);
      const ours = isDir ? rules.test(p, true).ignored || rules.ignores(p) : rules.ignores(p);
      assert.equal(ours, expected, `${JSON.stringify(pattern)} against ${p}${isDir ? '/' : ''}`);
      const gitLine = askGit ?? pattern;
      byPattern.set(gitLine, [...(byPattern.get(gitLine) ?? []), [p, isDir, expected]]);
    }
    if (!gitAvailable()) this.skip();
    for (const [pattern, rows] of byPattern) {
      const git = gitDecisions(pattern, rows.map(([p, isDir]) => [p, isDir]));
      rows.forEach(([p, isDir, expected], i) => assert.equal(git[i], expected, `git disagrees on ${JSON.stringify(pattern)} against ${p}${isDir ? '/' : ''}`));
    }
  });

  it('lets the last matching line decide, negations included', () => {
    const rules = createMatcher('*.log\n!keep.log\nsub/keep.log\n');
    assert.equal(rules.ignores('a.log'), true);
    assert.equal(rules.ignores('keep.log'), false);
    assert.equal(rules.ignores('x/keep.log'), false);
    assert.equal(rules.ignores('sub/keep.log'), true);
    assert.equal(rules.test('keep.log').unignored, true);
  });

  it('finds by its literal index the same rule as trying every rule from the last', () => {
    const lines = [...CASES.map((c) => c[0]), '*.c', '!keep.c', 'src/*.ts', '**/tmp/**', 'a/b/*.gz', 'artifact-*.tar.gz', '*.TAR.gz', 'build', '!**/d3', 'x*'];
    const rules = createMatcher(lines);
    const paths = [...CASES.map((c) => c[1]), 'keep.c', 'x/keep.c', 'src/a.ts', 'q/tmp/z/y.c', 'a/b/c.gz', 'artifact-1.tar.gz', 'z.tar.gz', 'build', 'd0/d1/d2/d3', 'xy', 'zz'];
    for (const p of paths) {
      for (const isDir of [false, true]) {
        let expected = -1;
        for (let i = rules.rules.length - 1; i >= 0 && expected < 0; i--) if (ruleMatches(rules.rules[i], p, isDir, false)) expected = i;
        const got = rules.test(p, isDir).rule;
        assert.equal(got ? rules.rules.indexOf(got) : -1, expected, `${p}${isDir ? '/' : ''}`);
      }
    }
  });

  it('does not apply a line beyond the budget, and says why', () => {
    assert.match(String((parseGitignoreLine('a'.repeat(2000), false) as { skip: string }).skip), /2000 characters/);
    assert.match(String((parseGitignoreLine('*x'.repeat(80), false) as { skip: string }).skip), /80 wildcards/);
    const rules = createMatcher(`ok.txt\n${'*x'.repeat(80)}\n`, 'sub/.gitignore');
    assert.deepEqual(rules.warnings, ['sub/.gitignore:2: 80 wildcards in one line (at most 64); this line is not applied']);
    assert.equal(rules.ignores('ok.txt'), true);
    const huge = createMatcher('x\n'.repeat(60_000), '.gitignore');
    assert.match(huge.warnings[0], /^\.gitignore: 60001 lines.*not applied$/);
    assert.equal(huge.ignores('x'), false);
  });
});
