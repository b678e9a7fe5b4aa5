// C++ receivers typed by what they are initialised with (engine/src/resolve/cpp.ts): `auto x = T()`,
// `new T`, a call's declared return type (`f().g`, `a.b().c`), overloads told apart by their argument
// count, range-for over a standard container, specializations' members, anonymous unions,
// using-declarations and function-like attribute macros (cppmacros.ts). Before, each of these left
// the member "candidates" (protocol R, fmt and nlohmann_json: member coverage 0.30).
import * as assert from 'assert';
import { Chunker } from '../../engine/src/chunk';
import { IncludeResolver } from '../../engine/src/resolve/includes';
import { countingSource } from './countingSource.helpers';
import { symbolSuite } from './workspace.helpers';

const TYPES = [
  '#pragma once', // 1
  '#define T_PRAGMA(x) _Pragma(#x)', // 2
  '#define T_VISIBLE(v) __attribute__((visibility(v)))', // 3
  'namespace t {', // 4
  'struct point { int px; int py; int norm() const { return px + py; } };', // 5
  'class T_VISIBLE("default") shape {', // 6
  ' public:', // 7
  '  point center() const { return point(); }', // 8
  '  auto corner(int i) const -> point { return point(); }', // 9
  '  int area() const { return 0; }', // 10
  '};', // 11
  'T_PRAGMA(clang diagnostic ignored "-Wx")', // 12
  'shape make_shape();', // 13
  'inline int count(int a) { return a; }', // 14
  'inline shape count(int a, int b) { return shape(); }', // 15
  'inline int pick(int a) { return a; }', // 16
  'inline int pick(double a) { return 0; }', // 17
  'template <typename T> struct traits { int generic; };', // 18
  'template <> struct traits<double> { using bits = point; int low(bits b) { return b.px; } };', // 19
  'struct value { union { int int_value; double double_value; }; };', // 20
  'class handle { public: handle(handle&& other) {} int fd() const { return 0; } };', // 21
  '}', // 22
  'namespace t {', // 23
  'inline int grow(int n) { return n; }', // 24
  'struct arena { void grow(int* p, int n) {} };', // 25
  '}', // 26
  '',
].join('\n');

const USE = [
  '#include "t/types.h"', // 1
  '#include <vector>', // 2
  'using t::handle;', // 3
  'namespace t {', // 4
  'int use(const value& v, std::vector<point> pts) {', // 5
  '  auto s = shape();', // 6
  '  auto p = new point();', // 7
  '  auto m = make_shape();', // 8
  '  int a = s.area() + p->norm() + m.area();', // 9
  '  int b = make_shape().center().px + s.corner(1).py;', // 10
  '  int c = count(1) + count(1, 2).area() + pick(1);', // 11
  '  for (const auto& q : pts) a += q.norm();', // 12
  '  auto n = s.area();', // 13
  '  auto it = pts.begin();', // 14
  '  return a + b + c + n + v.int_value + it->py;', // 15
  '}', // 16
  '}', // 17
  'int other(handle h) { return h.fd(); }', // 18
  'struct derived_shape : t::shape { static int of(t::shape& s) { auto& self = static_cast<derived_shape&>(s); return self.area(); } };', // 19
  'int sized() { using t::point; return point().norm(); }', // 20
  'void more(t::arena& a) { a.grow(nullptr, 2); }', // 21
  '',
].join('\n');

const FILES: Record<string, string> = { 'include/t/types.h': TYPES, 'src/use.cc': USE };
const use = 'src/use.cc', types = 'include/t/types.h';

/** [file, needle, defined at line of types.h]: each answered "candidates" before. */
const RESOLVED: Array<[string, string, number, string, number?]> = [
  [use, 'area() + p', 10, '`auto s = shape()`: the class constructed'],
  [use, 'norm() + m', 5, '`auto p = new point()`'],
  [use, 'm.area()', 10, '`auto m = make_shape()`: the declared return type', 2],
  [use, 'center().px', 8, 'a call result\'s member: make_shape() is a shape'],
  [use, 'px + s.corner', 5, '`a.b().c`: center() returns a point'],
  [use, '.py;', 5, 'a trailing return type: corner(int) -> point', 1],
  [use, 'count(1) +', 14, 'the overload taking one argument'],
  [use, 'count(1, 2)', 15, 'the overload taking two'],
  [use, 'area() + pick', 10, 'the return type of the overload taking two'],
  [use, 'q.norm()', 5, 'range-for over std::vector<point>', 2],
  [use, 'int_value + it', 20, 'a member of an anonymous union is its class\'s'],
  [use, 'fd()', 21, '`using t::handle;`'],
  [use, 'point().norm', 5, '`using t::point;` in the function body'],
  [use, 'grow(nullptr', 25, 'a member of a class parsed whole, though its namespace has a function of that name'],
  [use, 'area(); } };', 10, '`auto& self = static_cast<derived_shape&>(s)`: the class cast to, its base\'s member'],
  [types, 'handle&& other', 21, 'in a type position a class\'s constructor is not its name'],
  [types, 'b.px', 5, 'an alias in a specialization\'s body (`traits<double>::bits`)', 2],
];

/** Not sure: candidates or nothing, never "defines". */
const UNRESOLVED: Array<[string, string, string, number?]> = [
  [use, 'pick(1)', 'two overloads take one argument'],
  [use, 'it->py', '`auto it = pts.begin()`: a std:: result', 4],
];

describe('Engine.symbolAt types C++ receivers by their initialisers and call results', function () {
  this.timeout(60_000);
  const { at, defines } = symbolSuite(FILES, 'rr-cpp-types');

  for (const [file, needle, line, why, offset] of RESOLVED) {
    it(`defines: ${why}`, async () => {
      await defines(file, needle, types, line, offset);
    });
  }

  for (const [file, needle, why, offset] of UNRESOLVED) {
    it(`stays unresolved: ${why}`, async () => {
      const s = await at(file, needle, offset);
      assert.notStrictEqual(s?.resolution, 'defines', `${needle}: ${JSON.stringify(s)}`);
    });
  }
});

describe('IncludeResolver parses the asked C++ file once per version', function () {
  this.timeout(60_000);

  it('the file asked about is parsed once, its own declarations read from that tree', async () => {
    const chunker = await Chunker.create();
    const src = countingSource(chunker, FILES);
    const parsed = src.parsed;
    const includes = new IncludeResolver(src, 'linux', true);
    try {
      const grammar = (await chunker.grammarFor(use, USE))!;
      const tree = grammar.parser.parse(USE)!;
      const node = tree.rootNode.descendantForPosition({ row: 17, column: USE.split('\n')[17].indexOf('fd()') })!;
      const r = await includes.resolve(use, node, () => undefined, true);
      tree.delete();
      assert.strictEqual(r.kind, 'defines', JSON.stringify(r));
      assert.strictEqual(parsed.get(use), 1, `parses of ${use}: ${parsed.get(use)}`);
      assert.strictEqual(parsed.get(types), 1, `parses of ${types}: ${parsed.get(types)}`);
    } finally {
      includes.dispose();
      await chunker.dispose();
    }
  });
});
