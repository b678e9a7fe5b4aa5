// Names as code (issue 29) in C++: a name resolves as a compiler looks it up (engine/src/resolve/cpp.ts)
// through namespaces, classes and their bases, out-of-line definitions, `using namespace`, enums and
// the declared types of receivers, over the file's #include graph. Before, only macros resolved in
// C++: every other name stayed "candidates" of its spelling (protocol R coverage 0.045).
import * as assert from 'assert';
import { symbolSuite } from './workspace.helpers';

const FILES: Record<string, string> = {
  'include/lib/base.h': [
    '#pragma once', // 1
    'namespace lib {', // 2
    'namespace detail {', // 3
    'template <typename T> class buffer {', // 4
    ' public:', // 5
    '  T* ptr_;', // 6
    '  int size_;', // 7
    '  auto size() const -> int { return size_; }', // 8
    '  void push_back(const T& value);', // 9
    '};', // 10
    'struct specs {', // 11
    '  int width;', // 12
    '};', // 13
    'struct format_specs : specs {', // 14
    '  int precision;', // 15
    '};', // 16
    'void report(const char* message);', // 17
    'enum class pad_type { none, zero };', // 18
    'enum level { low, high };', // 19
    'inline int write(int out) { return out; }', // 20
    'inline int write(const char* out) { return 0; }', // 21
    '} // namespace detail', // 22
    'using appender = detail::buffer<char>;', // 23
    'template <typename T>', // 24
    'void detail::buffer<T>::push_back(const T& value) { ptr_[size_++] = value; }', // 25
    'class counter {', // 26
    '  int count_ = 0;', // 27
    ' public:', // 28
    '  void bump();', // 29
    '  int twice() const { return count_ * 2; }', // 30
    '};', // 31
    '} // namespace lib', // 32
    '',
  ].join('\n'),
  'src/lib.cc': [
    '#include "lib/base.h"', // 1
    'namespace lib {', // 2
    'namespace detail {', // 3
    'void report(const char* message) { (void)message; }', // 4
    '}', // 5
    'void counter::bump() { count_ += twice(); this->count_++; detail::report("x"); }', // 6
    'int width_of(const detail::format_specs& specs, appender& out) {', // 7
    '  out.push_back(1);', // 8
    '  detail::pad_type pad = detail::pad_type::zero;', // 9
    '  return specs.width + specs.precision + out.size() + detail::high + detail::write(1);', // 10
    '}', // 11
    '}', // 12
    'using namespace lib;', // 13
    'int use(std::string s) { counter c; c.bump(); return s.size() + width_of({}, *(appender*)0); }', // 14
    'template <typename Specs> int generic(Specs& s) { return s.width; }', // 15
    '',
  ].join('\n'),
  // Declarations wrapped in macros the parser cannot read (cppmacros.ts), as fmt's and nlohmann_json's are.
  'include/m/core.h': [
    '#define M_BEGIN_NAMESPACE \\', // 1
    '  namespace m {           \\', // 2
    '  inline namespace v1 {', // 3
    '#define M_END_NAMESPACE \\', // 4
    '  }                     \\', // 5
    '  }', // 6
    '#define M_CONSTEXPR constexpr', // 7
    '#define M_API __attribute__((visibility("default")))', // 8
    'M_BEGIN_NAMESPACE', // 9
    'class M_API sink {', // 10
    ' public:', // 11
    '  M_CONSTEXPR auto flush() -> int { return 0; }', // 12
    '};', // 13
    'M_END_NAMESPACE', // 14
    '',
  ].join('\n'),
  'src/m.cc': '#include "m/core.h"\nint go(m::sink& s) { return s.flush(); }\n',
  // The same spellings in a file lib.cc does not include: the lookup decides, not the spelling.
  'other/other.h': 'namespace other {\nstruct specs { int width; };\nvoid report(const char* message);\nclass counter { public: void bump(); };\n}\n',
};

describe('Engine.symbolAt resolves C++ names by namespaces, classes and declared types', function () {
  this.timeout(60_000);
  const { at, defines } = symbolSuite(FILES, 'rr-cpp');
  const lib = 'src/lib.cc', base = 'include/lib/base.h';

  it('a qualified call reaches its namespace\'s declaration, not a same-named one elsewhere', async () => {
    await defines(lib, 'report("x")', base, 17);
    // write(int) and write(const char*): an integer literal is passed to no pointer.
    await defines(lib, 'write(1)', base, 20);
  });

  it('a name in an out-of-line member function is a member of its class, through `this->` too', async () => {
    await defines(lib, 'count_ +=', base, 27);
    await defines(lib, 'twice()', base, 30);
    await defines(lib, 'count_++', base, 27);
    await defines(base, 'size_++', base, 7);
    await defines(base, 'ptr_[', base, 6);
  });

  it('a member through a parameter\'s declared type, an alias to a template and a base class', async () => {
    await defines(lib, 'width +', base, 12);
    await defines(lib, 'precision +', base, 15);
    await defines(lib, 'size() +', base, 8);
    await defines(lib, 'push_back(1)', base, 9);
    await defines(lib, 'bump(); return', base, 29);
  });

  it('types and enumerators by their namespaces, `using namespace` and enum scope', async () => {
    await defines(lib, 'format_specs&', base, 14);
    await defines(lib, 'appender& out', base, 23);
    await defines(lib, 'pad_type pad', base, 18);
    await defines(lib, 'zero;', base, 18);
    await defines(lib, 'high +', base, 19);
    await defines(lib, 'counter c', base, 26);
    await defines(lib, 'width_of({}', lib, 7);
  });

  it('through macros that open namespaces and mark declarations', async () => {
    await defines('src/m.cc', 'sink&', 'include/m/core.h', 10);
    await defines('src/m.cc', 'flush()', 'include/m/core.h', 12);
  });

  it('a template parameter\'s members and std:: names stay unresolved', async () => {
    for (const needle of ['width; }', 'size() + width_of', 'string s']) {
      const s = await at(lib, needle);
      assert.notStrictEqual(s?.resolution, 'defines', `${needle}: ${JSON.stringify(s)}`);
    }
  });
});
