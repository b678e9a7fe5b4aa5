// The one preprocessor-expression evaluator (engine/src/resolve/ppexpr.ts) and the compiler profiles
// it decides `#if` branches under (compilers.ts): table-driven, one row per rule.
import * as assert from 'assert';
import { compilerProfiles } from '../../engine/src/resolve/compilers';
import { decided } from '../../engine/src/resolve/cpreproc';
import { evaluate, evaluateNow, parseCond, PENDING, substitute, type Leaf } from '../../engine/src/resolve/ppexpr';

/** Names with values: `A` 2, `B` 0, `Z` undefined (not known); `defined(A)` and `defined(B)` 1, `defined(N)` 0. */
const leaf = (l: Leaf): number | undefined => {
  if (l.k === 'defined') return l.name === 'Z' ? undefined : +(l.name !== 'N');
  if (l.k === 'call') return l.name === 'HAS' ? +(l.args[0] === 'yes') : undefined;
  return ({ A: 2, B: 0 } as Record<string, number>)[l.name];
};

/** [expression, value (undefined: not decided), why]. */
const VALUES: Array<[string, number | undefined, string]> = [
  ['201703L', 201703, 'a suffixed number'],
  ['0x1F', 31, 'hexadecimal'],
  ['010', 8, 'octal'],
  ['A * 100 + 3', 203, 'precedence: * before +'],
  ['(A + 1) * 2', 6, 'parentheses'],
  ['A << 3 | 1', 17, 'shift before bitwise or'],
  ['-A + ~B', -3, 'unary minus and complement'],
  ['A >= 2 && !B', 1, 'comparison, not, and'],
  ['defined A && defined(B) && !defined N', 1, '`defined` with and without parentheses'],
  ['B && Z', 0, '&&: a false side decides it, the other unknown'],
  ['Z && B', 0, '&&: whichever side is false'],
  ['Z || A', 1, '||: a true side decides it'],
  ['Z || B', undefined, '||: an unknown and a false side'],
  ['Z == 1', undefined, 'an unknown operand leaves a comparison unknown'],
  ['A ? 5 : Z', 5, '?: picks its side'],
  ['B ? Z : 7', 7, '?: the other side'],
  ['HAS(yes) + HAS(no)', 1, 'a call with its argument'],
  ['A / B', undefined, 'division by zero decides nothing'],
  ['A +', undefined, 'a trailing operator is unreadable'],
  ['"x" == 1', undefined, 'a string is not a preprocessor number'],
  ['A /* two */ == \\\n 2 // yes', 1, 'comments and a continued line'],
];

describe('ppexpr: preprocessor expressions', () => {
  for (const [text, want, why] of VALUES) {
    it(`${JSON.stringify(text)} → ${want} (${why})`, () => assert.strictEqual(evaluateNow(parseCond(text), leaf), want));
  }

  it('asks for names lazily: a side && already decided is not looked up', () => {
    const asked: string[] = [];
    const v = evaluate(parseCond('defined(X) && Y > 1'), (l) => (asked.push(l.name), l.name === 'X' ? 0 : PENDING));
    assert.deepStrictEqual([v, asked], [0, ['X']]);
  });

  it('reports PENDING while a deciding name is not known yet', () => {
    assert.strictEqual(evaluate(parseCond('X || Y'), () => PENDING), PENDING);
  });

  it('substitutes a function-like macro\'s parameters, not its other names', () => {
    assert.strictEqual(substitute('__has_feature(x) && x_y', ['x'], ['cxx_constexpr']), '__has_feature(cxx_constexpr) && x_y');
    assert.strictEqual(substitute('a + b', ['a', 'b'], ['1']), undefined, 'argument count differs');
    assert.strictEqual(substitute('#x', ['x'], ['1']), undefined, 'stringizing is no expression');
  });
});

/** [condition, on Linux: 1 both compilers take it, 0 neither, undefined they differ or cannot tell]. */
const BRANCHES: Array<[string, number | undefined, string]> = [
  ['defined(__linux__)', 1, 'the platform'],
  ['defined(_WIN32) || defined(__APPLE__)', 0, 'other platforms'],
  ['__GNUC__ >= 4', 1, 'GCC 12 and Clang (4.2)'],
  ['__GNUC__ >= 5', undefined, 'Clang claims GCC 4.2: the compilers differ'],
  ['defined(__clang__)', undefined, 'the user\'s build picks the compiler'],
  ['defined(__INTEL_COMPILER) || defined(__NVCOMPILER)', 0, 'neither is another vendor\'s'],
  ['defined(__has_include)', 1, 'both have __has_include'],
  ['__has_include(<fcntl.h>)', undefined, 'what it finds depends on the system'],
  ['defined(__has_feature)', undefined, 'only Clang has __has_feature'],
  ['MY_OPTION', undefined, 'a build option'],
  ['defined(__x86_64__)', undefined, 'a name neither profile lists'],
];

describe('compiler profiles decide a branch only where GCC and Clang agree', () => {
  const profiles = compilerProfiles('linux');
  for (const [text, want, why] of BRANCHES) {
    it(`#if ${text} → ${want} (${why})`, () => assert.strictEqual(decided(parseCond(text), profiles), want));
  }

  it('on Windows only the platform is known', () => {
    const win = compilerProfiles('win32');
    assert.strictEqual(decided(parseCond('defined(_WIN32)'), win), 1);
    assert.strictEqual(decided(parseCond('defined(__INTEL_COMPILER)'), win), undefined);
  });
});
