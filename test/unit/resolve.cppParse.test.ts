// C++ parses kept whole through the macros and casts that broke fmt's base.h (cppmacros.ts): a
// defaulted template parameter macro (`FMT_ENABLE_IF(…)`), an extra-parameter macro (`FMT_BUILTIN`),
// exception macros (`FMT_TRY`/`FMT_CATCH`), `unsigned(x)`; and receivers typed through a smart pointer
// (`std::unique_ptr<T>` then `->`), a local class, and `data()` vs `data() const` by the receiver's
// constness (cpp.ts). Before, each of these left the name "candidates" (protocol R, fmt: uint_value,
// size, data, descriptor, run).
import * as assert from 'assert';
import { Chunker } from '../../engine/src/chunk';
import { IncludeResolver } from '../../engine/src/resolve/includes';
import { symbolSuite } from './workspace.helpers';

const BASE = [
  '#pragma once', // 1
  '#ifdef P_DOC', // 2
  '#  define P_ENABLE_IF(...)', // 3
  '#else', // 4
  '#  define P_ENABLE_IF(...) p::enable_if_t<(__VA_ARGS__), int> = 0', // 5
  '#endif', // 6
  '#if P_BUILTIN_TYPES', // 7
  '#  define P_BUILTIN , monostate', // 8
  '#else', // 9
  '#  define P_BUILTIN', // 10
  '#endif', // 11
  '#if P_EXCEPTIONS', // 12
  '#  define P_TRY try', // 13
  '#  define P_CATCH(x) catch (x)', // 14
  '#else', // 15
  '#  define P_TRY if (true)', // 16
  '#  define P_CATCH(x) if (false)', // 17
  '#endif', // 18
  'namespace p {', // 19
  'struct monostate {};', // 20
  'template <typename T, P_ENABLE_IF(sizeof(T) > 1)>', // 21
  'int wide(T) { return 1; }', // 22
  'class sink {', // 23
  ' public:', // 24
  '  ~sink() {', // 25
  '    P_TRY { flush(); }', // 26
  '    P_CATCH(...) {}', // 27
  '  }', // 28
  '  void flush() {}', // 29
  '  int level;', // 30
  '};', // 31
  'class arg {', // 32
  ' public:', // 33
  '  auto get(int id) const -> int {', // 34
  '    if (unsigned(id) < unsigned(count())) return id;', // 35
  '    return 0;', // 36
  '  }', // 37
  '  int count() const { return 0; }', // 38
  '  int kind;', // 39
  '};', // 40
  'class value {', // 41
  ' public:', // 42
  '  value(int x P_BUILTIN) : int_value(x) {}', // 43
  '  value(double x P_BUILTIN) : double_value(x) {}', // 44
  '  int int_value;', // 45
  '  double double_value;', // 46
  '};', // 47
  'class buffer {', // 48
  ' public:', // 49
  '  int* data() { return nullptr; }', // 50
  '  const int* data() const { return nullptr; }', // 51
  '  int size() const { return 0; }', // 52
  '};', // 53
  '}', // 54
  '',
].join('\n');

const USE = [
  '#include "p/base.h"', // 1
  '#include <memory>', // 2
  'namespace p {', // 3
  'int use(value v, sink s, arg a, const buffer& cb) {', // 4
  '  buffer b;', // 5
  '  std::unique_ptr<buffer> owned(new buffer());', // 6
  '  struct local { int run() { return 1; } };', // 7
  '  auto l = local();', // 8
  '  int n = v.int_value + s.level + a.kind + *b.data() + *cb.data();', // 9
  '  return n + owned->size() + l.run() + owned.get() != nullptr;', // 10
  '}', // 11
  '}', // 12
  '',
].join('\n');

const FILES: Record<string, string> = { 'include/p/base.h': BASE, 'src/use.cc': USE };
const use = 'src/use.cc', base = 'include/p/base.h';

/** [file, needle, defined at line, why]: each answered "candidates" before. */
const RESOLVED: Array<[string, string, string, number, string]> = [
  [use, 'int_value +', base, 45, 'a class after `P_BUILTIN` parameters and `P_TRY`/`P_CATCH` keeps its namespace'],
  [use, 'level +', base, 30, 'a class holding `P_TRY {…} P_CATCH(...) {}` reads whole'],
  [use, 'kind +', base, 39, 'a class holding `if (unsigned(id) < …)` reads whole'],
  [use, 'data() + *cb', base, 50, 'a receiver declared non-const calls `data()`'],
  [use, 'data();', base, 51, 'a `const buffer&` receiver calls `data() const`'],
  [use, 'size() +', base, 52, '`std::unique_ptr<buffer>` then `->`: a buffer'],
  [use, 'run() +', use, 7, 'a local class declared in the function'],
];

/** Not sure, or not the repository's: never "defines". */
const UNRESOLVED: Array<[string, string, string]> = [
  [use, 'get() !=', '`.` on a smart pointer is the pointer\'s own member (std), not the pointee\'s'],
];

describe('Engine.symbolAt reads C++ through fmt-style macros, smart pointers, local classes and const overloads', function () {
  this.timeout(60_000);
  const { at, defines } = symbolSuite(FILES, 'rr-cpp-parse');

  for (const [file, needle, where, line, why] of RESOLVED) {
    it(`defines: ${why}`, async () => {
      await defines(file, needle, where, line);
    });
  }

  for (const [file, needle, why] of UNRESOLVED) {
    it(`stays unresolved: ${why}`, async () => {
      const s = await at(file, needle);
      assert.notStrictEqual(s?.resolution, 'defines', `${needle}: ${JSON.stringify(s)}`);
    });
  }
});
