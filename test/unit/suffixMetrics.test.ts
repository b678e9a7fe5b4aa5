// The E_suffix benchmark's own duplicated-suffix check (test/bench/suffixMetrics.ts): brackets in code
// only, each side of the cursor read after the prefix (a suggestion inside a docstring is no code).
import * as assert from 'assert';
import { declaredNames, duplicatesSuffix, repositoryDefinitions, unboundNames } from '../bench/suffixMetrics';

describe('E_suffix duplicated-suffix metric', () => {
  it('counts a closer the text after the cursor already has, in code', () => {
    assert.strictEqual(duplicatesSuffix('b=2)', 'x = f(\n    a=1,\n    ', '\n    c=3)\n', true), true);
    assert.strictEqual(duplicatesSuffix('b=2)', 'x = f(\n    a=1,\n    ', '\nprint(x)\n', true), false);
  });

  it('counts no bracket of a suggestion made inside a docstring (DEV perplexity.py: the exact target was counted)', () => {
    const prefix = 'def compute():\n    """Example:\n        >>> results = perplexity.compute(model_id="gpt2",\n        ';
    assert.strictEqual(duplicatesSuffix('...     predictions=input_texts)', prefix, '\n        >>> print(results)\n    """\n    return 1\n', true), false);
  });
});

// The E_suffix unbound-name metric's binding forms per language, each row a suggestion from the
// bench-langs run at 494a95d that the metric counted unbound though the language binds the name.
describe('E_suffix unbound-name metric: binding forms per language', () => {
  const repoDefs = repositoryDefinitions({ name: 'r', files: [
    { relPath: 'include/uv.h', lines: ['UV_EXTERN int uv_os_getenv(const char* name, char* buffer, size_t* size);', 'typedef void (*uv_getnameinfo_cb)(int status);', 'typedef struct uv_buf_t {', '} uv_buf_t;'] },
    { relPath: 'include/macros.hpp', lines: ['#define NLOHMANN_JSON_NAMESPACE_END }', '#  define JSON_HEDLEY_LIKELY(expr) (expr)'] },
    { relPath: 'include/uv/tree.h', lines: ['#define RB_HEAD(name, type)  \\', 'struct name {  \\', '  struct type *rbh_root;  \\', '}'] },
    { relPath: 'src/app.py', lines: ['def helper():', 'int_value = 1'] },
  ] } as never);
  const rows: { language: string; typed: string; suggestion: string; file: string; unbound: string[]; why: string }[] = [
    { language: 'rust', typed: '', suggestion: 'Duration::ZERO,', file: 'use std::time::Duration;', unbound: [], why: 'a path segment is qualified by Duration' },
    { language: 'rust', typed: '', suggestion: 'elapsed(ZERO)', file: 'use std::time::Duration;', unbound: ['elapsed', 'ZERO'], why: 'bare names stay checked' },
    { language: 'cpp', typed: '', suggestion: 'NLOHMANN_JSON_NAMESPACE_END', file: '', unbound: [], why: 'a macro the repository #defines' },
    { language: 'cpp', typed: '  ', suggestion: 'detail::vformat_to(buf, fmt, args, loc);', file: 'namespace detail {} void f(buf, fmt, args) {}', unbound: ['loc'], why: 'loc is bound nowhere' },
    { language: 'c', typed: '', suggestion: '  r = uv_os_getenv(name, buf, &size);', file: 'int r; char buf[1]; size_t size;', unbound: ['name'], why: 'a prototype in a header defines uv_os_getenv; name is bound nowhere (a macro body\'s `struct name` defines nothing)' },
    { language: 'c', typed: '', suggestion: '    uv_getnameinfo_cb getnameinfo_cb,', file: '', unbound: [], why: 'a parameter declaration binds getnameinfo_cb; a typedef defines its type' },
    { language: 'c', typed: '', suggestion: '      UCHAR PathBuffer[1];', file: 'UCHAR', unbound: [], why: 'a field declaration binds PathBuffer' },
    { language: 'c', typed: '', suggestion: 'consume(req->data);', file: 'req consume', unbound: [], why: 'a member through a pointer' },
    { language: 'c', typed: '', suggestion: 'if (flags & MASK) return cnt;', file: 'flags', unbound: ['MASK', 'cnt'], why: 'a bitwise and is no declaration; return precedes an expression' },
    { language: 'c', typed: '', suggestion: 'uv_buf_t *bufs = NULL;', file: 'NULL', unbound: [], why: 'a pointer declaration; a typedef name' },
    { language: 'java', typed: '', suggestion: '  public void setUp() {', file: '', unbound: [], why: 'a method declaration binds its name' },
    { language: 'java', typed: '', suggestion: '    return compute(x);', file: 'x', unbound: ['compute'], why: 'a call after return is no declaration' },
    { language: 'python', typed: '', suggestion: 'def f(x) -> Missing[int]:', file: '', unbound: ['Missing'], why: 'a Python return annotation is a name, not a member' },
    { language: 'python', typed: '', suggestion: 'total = helper() + int_value', file: '', unbound: [], why: 'module-level definitions of Python files' },
  ];
  for (const r of rows) {
    it(`${r.language}: ${r.suggestion.trim()} -> [${r.unbound.join(', ')}] (${r.why})`, () => {
      assert.deepStrictEqual(unboundNames(r.suggestion, r.typed, r.file, repoDefs, r.language), r.unbound);
    });
  }

  it('reads declarations in C, C++ and Java only', () => {
    assert.deepStrictEqual(declaredNames('int count = 0;', 'c'), ['count']);
    assert.deepStrictEqual(declaredNames('std::vector<int> xs;', 'cpp'), ['xs']);
    assert.deepStrictEqual(declaredNames('final String name = x;', 'java'), ['name']);
    assert.deepStrictEqual(declaredNames('x y = 1', 'python'), []);
  });
});
