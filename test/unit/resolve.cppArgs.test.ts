// C++ names the resolver left "candidates" before session 23 (engine/src/resolve): macros defined in
// `#if` branches whose conditions the include graph decides (macroBranches.ts), overloads of one
// arity told apart by evident argument types (cppkinds.ts), `std::make_unique<T>` / `make_shared<T>`
// followed through `->`, names in a local class's member functions, a `FILE*` field, and a class
// whose constructor prototype named it at file level. Each resolved row answered candidates or
// nothing on main (7c87683); the macros and the comment in K_IMPL are fmt's shapes, read through.
import { symbolTable } from './workspace.helpers';

const KINDS = [
  '#pragma once', // 1
  '#define K_API __attribute__((visibility("default")))', // 2
  '#ifdef K_DOC', // 3
  '#  define K_ENABLE(x)', // 4
  '#else', // 5
  '#  define K_ENABLE(x) int', // 6
  '#endif', // 7
  '#ifndef K_USE_FAST', // 8
  '#  define K_USE_FAST 1', // 9
  '#endif', // 10
  '#if K_USE_FAST && __cplusplus >= 201402L', // 11
  '#  define K_MODE 2', // 12
  '#else', // 13
  '#  define K_MODE 3', // 14
  '#endif', // 15
  '#if defined(__clang__)', // 16
  '#  define K_CLANG 1', // 17
  '#else', // 18
  '#  define K_CLANG 0', // 19
  '#endif', // 20
  'namespace k {', // 21
  'template <typename Char> struct view { const Char* data; };', // 22
  'class args {', // 23
  ' public:', // 24
  '  int get(int id) const { return id; }', // 25
  '  template <typename Char> int get(view<Char> name) const { return 0; }', // 26
  '  int put(const char* s) { return 0; }', // 27
  '  int put(long n) { return 1; }', // 28
  '};', // 29
  '#define K_IMPL(s, base) \\', // 30
  '  [] {                                               \\', // 31
  '    /* Use the hidden visibility (#1973). */         \\', // 32
  '    /* Use a macro-like name. */                     \\', // 33
  '    struct K_API K_NAME : base {                     \\', // 34
  '      using char_type = char;                        \\', // 35
  '    };                                               \\', // 36
  '    return K_NAME();                                 \\', // 37
  '  }()', // 38
  'class stream {', // 39
  '  FILE* file_;', // 40
  ' public:', // 41
  '  stream(FILE* f);', // 42
  '  int swap(stream&& other) { file_ = other.file_; return 0; }', // 43
  '};', // 44
  'struct widget { explicit widget() = default; widget(widget&&) = default; ~widget() = default; int size() const { return 0; } };', // 45
  'template <typename C> class K_API store { friend class view<C>; };', // 46
  'struct number { operator int() const { return 0; } };', // 47
  '}', // 48
  '',
].join('\n');

const USE = [
  '#include "k/kinds.h"', // 1
  '#include <memory>', // 2
  'int modes[] = {K_MODE, K_CLANG};', // 3
  'K_ENABLE(x) enabled();', // 4
  'namespace k {', // 5
  'int use(const args& a, int id, view<char> name) {', // 6
  '  int n = a.get(id) + a.get(name) + a.get(7);', // 7
  '  auto w = std::make_unique<widget>();', // 8
  '  auto s = std::make_shared<widget>();', // 9
  '  struct counter { int bound; int next() { return ++bound; } };', // 10
  '  return n + w->size() + s->size() + (w.get() != nullptr);', // 11
  '}', // 12
  'int put_all(args& a) { return a.put("x") + a.put(2) + a.put(2.5); }', // 13
  'int measure(widget& x) { return x.size(); }', // 14
  '}', // 15
  'int measure_again(k::widget& x) { return x.size() + 1; }', // 16
  'int convert(const k::args& a, k::number n) { return a.get(n); }', // 17
  '',
].join('\n');

const FILES: Record<string, string> = { 'include/k/kinds.h': KINDS, 'src/use.cc': USE };
const use = 'src/use.cc', kinds = 'include/k/kinds.h';

/** [file, needle, defined in file, at line, why, offset in the needle]. */
const RESOLVED: Array<[string, string, string, number, string, number?]> = [
  [use, 'K_ENABLE(x)', kinds, 6, '`#ifdef K_DOC`: a macro the include graph never defines is not defined'],
  [use, 'K_MODE,', kinds, 12, '`#ifndef K_USE_FAST` defines it 1, and `__cplusplus` is at least C++14'],
  [use, 'get(id)', kinds, 25, 'an int parameter is no view<Char> a template deduces'],
  [use, 'get(7)', kinds, 25, 'nor is an integer literal'],
  [use, 'get(name)', kinds, 26, 'a view<char> (no conversion function) is passed to no int'],
  [use, 'put("x")', kinds, 27, 'a string literal is passed to no long'],
  [use, 'put(2)', kinds, 28, 'an integer literal to no pointer'],
  [use, 'put(2.5)', kinds, 28, 'a floating-point literal to no pointer'],
  [use, 'size() + s', kinds, 45, '`auto w = std::make_unique<widget>()`: w-> is a widget', 0],
  [use, 'size() + (w', kinds, 45, '`auto s = std::make_shared<widget>()`', 0],
  [kinds, 'widget() = default; int', kinds, 45, 'a destructor\'s name is its class, not a constructor'],
  [use, 'bound; } }', use, 10, 'a name in a local class\'s member function is its member'],
  [kinds, 'file_; return', kinds, 40, 'a FILE* field, through a parameter of a class whose constructor prototype names it'],
];

/** Not sure: candidates or nothing, never "defines". */
const UNRESOLVED: Array<[string, string, string]> = [
  [use, 'K_CLANG', 'a compiler\'s own macro (`__clang__`) decides it'],
  [use, 'get(n)', 'a class argument with `operator int()` may be passed to int'],
  [use, 'get() !=', '`w.get()` is the smart pointer\'s, not widget\'s'],
];

describe('Engine.symbolAt resolves C++ macros by their #if branches and overloads by their arguments', function () {
  this.timeout(60_000);
  symbolTable(FILES, 'rr-cpp-args', RESOLVED, UNRESOLVED);
});
