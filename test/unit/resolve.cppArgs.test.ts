// C++ names the resolver left "candidates" before session 23 (engine/src/resolve): macros defined in
// `#if` branches whose conditions the include graph decides (macroBranches.ts), overloads of one
// arity told apart by evident argument types (cppkinds.ts), `std::make_unique<T>` / `make_shared<T>`
// followed through `->`, names in a local class's member functions, a `FILE*` field, and a class
// whose constructor prototype named it at file level; since s24, macros whose branches GCC and Clang
// decide alike (compilers.ts), wide string parameters, and no template-id of another class deduced
// from an object. Each resolved row answered candidates or nothing before its session (7c87683,
// fb787c8); the macros and the comment in K_IMPL are fmt's shapes, read through.
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
  '#if defined(__clang__) && !defined(__ibmxl__)', // 49
  '#  define K_CLANG_VERSION (__clang_major__ * 100 + __clang_minor__)', // 50
  '#else', // 51
  '#  define K_CLANG_VERSION 0', // 52
  '#endif', // 53
  '#if defined(__GNUC__) && !defined(__clang__) && !defined(__INTEL_COMPILER)', // 54
  '#  define K_GCC_VERSION (__GNUC__ * 100 + __GNUC_MINOR__)', // 55
  '#else', // 56
  '#  define K_GCC_VERSION 0', // 57
  '#endif', // 58
  '#ifdef __has_feature', // 59
  '#  define K_HAS_FEATURE(x) __has_feature(x)', // 60
  '#else', // 61
  '#  define K_HAS_FEATURE(x) 0', // 62
  '#endif', // 63
  '#ifdef K_USE_CONSTEXPR', // 64
  '#elif K_GCC_VERSION >= 702 && __cplusplus >= 201402L', // 65
  '#  define K_USE_CONSTEXPR 1', // 66
  '#elif K_HAS_FEATURE(cxx_relaxed_constexpr)', // 67
  '#  define K_USE_CONSTEXPR 1', // 68
  '#else', // 69
  '#  define K_USE_CONSTEXPR 0', // 70
  '#endif', // 71
  '#if K_USE_CONSTEXPR', // 72
  '#  define K_CONSTEXPR constexpr', // 73
  '#else', // 74
  '#  define K_CONSTEXPR', // 75
  '#endif', // 76
  '#if K_CLANG_VERSION', // 77
  '#  define K_PRAGMA_CLANG(x) _Pragma(#x)', // 78
  '#else', // 79
  '#  define K_PRAGMA_CLANG(x)', // 80
  '#endif', // 81
  '#if defined(__cpp_if_constexpr) && defined(__cpp_return_type_deduction)', // 82
  '#  define K_COMPILE(s) s', // 83
  '#else', // 84
  '#  define K_COMPILE(s) 0', // 85
  '#endif', // 86
  'namespace k {', // 87
  'template <typename Char> struct basic_string_view { basic_string_view(const Char* s) : p(s) {} const Char* p; };', // 88
  'template <typename... T> int sprint(basic_string_view<char> f, const T&... xs) { return 0; }', // 89
  'template <typename... T> int sprint(basic_string_view<wchar_t> f, const T&... xs) { return 1; }', // 90
  'int wide(const wchar_t* s) { return 0; }', // 91
  'int wide(const char* s) { return 1; }', // 92
  '}', // 93
  'namespace std { template <class T> class reference_wrapper; }', // 94
  'namespace k {', // 95
  'template <typename T, typename C> struct named_arg { const T& value; };', // 96
  'template <typename Context> class arg_store {', // 97
  ' public:', // 98
  '  template <typename T> void push_back(const T& arg) {}', // 99
  '  template <typename T> void push_back(std::reference_wrapper<T> arg) {}', // 100
  '  template <typename T> void push_back(const named_arg<T, char>& arg) {}', // 101
  '};', // 102
  'struct stringable { friend int to_string_view(stringable) { return 0; } };', // 103
  '}', // 104
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
  'K_CONSTEXPR int twice(int x) { return 2 * x; }', // 18
  'int compiled = K_COMPILE(1);', // 19
  'K_PRAGMA_CLANG(diagnostic push)', // 20
  'int printed = k::sprint("%d", 5, 42) + k::sprint(L"%d", 5) + k::wide("x");', // 21
  'void store_all(k::arg_store<int>& st, k::named_arg<int, char> na) {', // 22
  '  auto s = k::stringable();', // 23
  '  st.push_back(s); st.push_back(na);', // 24
  '}', // 25
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
  [use, 'K_CONSTEXPR int', kinds, 73, 'GCC 12 takes `K_GCC_VERSION >= 702`, Clang `__has_feature(cxx_relaxed_constexpr)`: both reach constexpr'],
  [use, 'K_COMPILE(1)', kinds, 83, 'C++17 defines both feature macros, in GCC and in Clang'],
  [use, 'sprint("%d"', kinds, 89, 'a narrow string literal reaches no basic_string_view<wchar_t>'],
  [use, 'wide("x")', kinds, 92, 'nor a const wchar_t*'],
  [use, 'push_back(s)', kinds, 99, 'an object of another class deduces no std::reference_wrapper<T> and no named_arg<T, char>'],
];

/** Not sure: candidates or nothing, never "defines". */
const UNRESOLVED: Array<[string, string, string]> = [
  [use, 'K_CLANG}', 'a compiler\'s own macro (`__clang__`) decides it: GCC and Clang differ'],
  [use, 'K_PRAGMA_CLANG', 'Clang takes `K_CLANG_VERSION`\'s branch, GCC the other'],
  [use, 'push_back(na)', 'a named_arg<int, char> fits named_arg<T, char> and const T& alike (no partial ordering here)'],
  [use, 'sprint(L"%d"', 'a wide literal: whether basic_string_view<char> takes it is its constructors\''],
  [use, 'get(n)', 'a class argument with `operator int()` may be passed to int'],
  [use, 'get() !=', '`w.get()` is the smart pointer\'s, not widget\'s'],
];

describe('Engine.symbolAt resolves C++ macros by their #if branches and overloads by their arguments', function () {
  this.timeout(60_000);
  symbolTable(FILES, 'rr-cpp-args', RESOLVED, UNRESOLVED);
});
