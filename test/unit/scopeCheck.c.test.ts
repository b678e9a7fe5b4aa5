// The names check in C and C++ (engine/src/complete/cursorNames.ts, vetter.ts, resolve/includes.ts)
// on a real index and real tree-sitter: a name is bound by the function's scopes, the file, the
// headers it includes (macros, prototypes, typedefs, through nested includes), the repository's
// definitions, or the language; anything else cuts the suggestion (bench-langs at 494a95d offered
// libuv's `uv_os_getenv(name, …)` and fmt's `vformat_to(buf, fmt, args, loc)` with neither bound).
import * as assert from 'assert';
import type { EditorState } from '../../engine/src/types';
import { indexedWorkspace, type IndexedWorkspace } from './workspace.helpers';

const FILES: Record<string, string> = {
  'include/uv.h': [
    '#ifndef UV_H',
    '#define UV_H',
    '#include "uv/version.h"',
    '#include "uv/win.h"',
    '#include "uv/abi.hpp"',
    'typedef struct uv_buf_t { char* base; size_t len; } uv_buf_t;',
    'UV_EXTERN int uv_os_getenv(const char* name, char* buffer, size_t* size);',
    'UV_EXTERN int uv_os_gethostname(char* buffer, size_t* size);',
    '#endif',
  ].join('\n'),
  'include/uv/version.h': '#define UV_VERSION_MAJOR 1\n#define UV_MAXHOSTNAMESIZE 256\n',
  // A typedef the C grammar misreads (PASCAL is a macro it cannot know): `name` is a parameter, not a type.
  'include/uv/win.h': '  typedef BOOL (PASCAL *LPFN_CONNECTEX)\n                       const struct sockaddr* name);\n',
  // A macro whose body has a comment before its line continuation: the C++ grammar leaves its tokens in an ERROR node.
  'include/uv/abi.hpp': '#define UV_NS_END                    \\\n    }  /* namespace (inline namespace) */ \\\n',
  'test/test-gethostname.c': [
    '#include "uv.h"',
    '#include <string.h>',
    '',
    'static int check_hostname(void) {',
    '  char buf[UV_MAXHOSTNAMESIZE];',
    '  size_t size = sizeof(buf);',
    '  int r;',
    '',
    '  r = uv_os_gethostname(buf, &size);',
    '  return r;',
    '}',
    '',
    'static int check_env(const char* name) {',
    '  char buf[8];',
    '  size_t size = sizeof(buf);',
    '  return uv_os_getenv(name, buf, &size);',
    '}',
    '',
  ].join('\n'),
  'src/color.h': [
    '#include "base.h"',
    'namespace fmt {',
    'template <typename OutputIt,',
    '          FMT_ENABLE_IF(detail::is_output_iterator<OutputIt, char>::value)>',
    'auto vformat_to(OutputIt out, text_style ts, string_view fmt, format_args args)',
    '    -> OutputIt {',
    '  auto&& buf = detail::get_buffer<char>(out);',
    '  detail::vformat_to(buf, ts, fmt, args);',
    '  return detail::get_iterator(buf, out);',
    '}',
    '}  // namespace fmt',
  ].join('\n'),
  // The C++ grammar reads this prefix (a statement where a declaration belongs, from a macro it cannot expand) as one ERROR node.
  'tests/unit-unicode.cpp': [
    '#include "doctest.h"',
    'static void check_all() { for (int byte1 = 0; byte1 < 2; ++byte1) check_utf8dump(false, byte1, 0); }',
    '    if (success_expected)',
    '                for (int byte1 = 0xF1; byte1 <= 0xF3; ++byte1)',
    '                        for (int byte3 = 0x80; byte3 <= 0xBF; ++byte3)',
    '                        {',
    '                            for (int byte4 = 0x80; byte4 <= 0xBF; ++byte4)',
    '                            {',
    '                                check_utf8dump(true, byte1, byte3, byte4);',
    '                            }',
    '                        }',
  ].join('\n'),
  'tests/doctest.h': 'void check_utf8dump(bool ok, int a, int b, int c);\n',
  'src/base.h': '#define FMT_BEGIN_NAMESPACE namespace fmt {\n#define FMT_END_NAMESPACE }\nstruct text_style {};\n',
};

function state(file: string, prefix: string, suffix: string, language: string): EditorState {
  return { file, prefix, suffix, language, line: prefix.split('\n').length - 1 };
}

/** The editor's state with the cursor at the start of the line after `after` in `file`'s text (that line then removed). */
function cursorAfter(file: string, after: string, language: string): EditorState {
  const text = FILES[file];
  const at = text.indexOf(after) + after.length + 1;
  const lineEnd = text.indexOf('\n', at);
  return state(file, text.slice(0, at), text.slice(lineEnd), language);
}

describe('the names check in C and C++', function () {
  this.timeout(60_000);
  let ws: IndexedWorkspace;
  before(async () => {
    ws = await indexedWorkspace(FILES, 'rr-scope-c');
  });
  after(async () => ws?.dispose());

  it('withdraws a C line using `name` where the function has none (nor a misread typedef of an included header)', async () => {
    const st = cursorAfter('test/test-gethostname.c', '  int r;\n', 'c');
    const vetted = await ws.engine.vet(st, '  r = uv_os_getenv(name, buf, &size);');
    assert.deepStrictEqual(vetted, { text: '', cut: { line: 0, reason: 'unbound', name: 'name' } });
  });

  it('keeps names bound by the function, a nested include (macros, one the grammar reads as an ERROR, prototypes, typedefs) and the language', async () => {
    const st = cursorAfter('test/test-gethostname.c', '  int r;\n', 'c');
    const bound = '  r = uv_os_getenv("HOME", buf, &size);\n  uv_buf_t copy;\n  char big[UV_VERSION_MAJOR + UV_MAXHOSTNAMESIZE];\n  UV_NS_END\n  unsigned long n = sizeof(int) + (size_t) 0;';
    assert.deepStrictEqual(await ws.engine.vet(st, bound), { text: bound });
  });

  it('cuts a C block to its lines before the first unbound name', async () => {
    const st = cursorAfter('test/test-gethostname.c', '  int r;\n', 'c');
    const vetted = await ws.engine.vet(st, '  r = uv_os_gethostname(buf, &size);\n  r = uv_os_getenv(name, buf, &size);');
    assert.deepStrictEqual(vetted, { text: '  r = uv_os_gethostname(buf, &size);', cut: { line: 1, reason: 'unbound', name: 'name' } });
  });

  it('withdraws a C++ call passing `loc`, which nothing binds in vformat_to, and keeps its parameters (a `.h` read as C++)', async () => {
    const st = cursorAfter('src/color.h', '  auto&& buf = detail::get_buffer<char>(out);', 'cpp');
    assert.deepStrictEqual(await ws.engine.vet(st, '  detail::vformat_to(buf, fmt, args, loc);'), { text: '', cut: { line: 0, reason: 'unbound', name: 'loc' } });
    const bound = '  detail::vformat_to(buf, ts, fmt, args);\n  FMT_END_NAMESPACE';
    assert.deepStrictEqual(await ws.engine.vet(st, bound), { text: bound });
  });

  it('binds the loop variables of a C++ prefix the grammar reads as an ERROR node (nlohmann unit-unicode4.cpp, no text after the cursor)', async () => {
    const text = FILES['tests/unit-unicode.cpp'];
    const prefix = text.slice(0, text.indexOf('                                check_utf8dump'));
    const st = state('tests/unit-unicode.cpp', prefix, '', 'cpp');
    const line = '                                check_utf8dump(true, byte1, byte3, byte4);';
    assert.deepStrictEqual(await ws.engine.vet(st, line), { text: line });
    assert.strictEqual((await ws.engine.vet(st, line.replace('byte4', 'byte5'))).text, '');
  });

  it('reads a header again once it changes', async () => {
    const st = cursorAfter('test/test-gethostname.c', '  int r;\n', 'c');
    const text = '  r = UV_HOSTNAME_RETRIES;';
    assert.strictEqual((await ws.engine.vet(st, text)).text, '');
    await ws.engine.updateFile('include/uv/version.h', FILES['include/uv/version.h'] + '#define UV_HOSTNAME_RETRIES 3\n');
    assert.deepStrictEqual(await ws.engine.vet(st, text), { text });
  });
});
