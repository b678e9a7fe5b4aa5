// Names as code (issue 29) in C: a name no scope of the file binds resolves through the
// file's #include graph (engine/src/resolve/includes.ts), as clangd's go-to-definition does. Before,
// every such name stayed "candidates" of its spelling: no "defines" at all in C (protocol R
// coverage 0 on ../shared/bench-langs).
import * as assert from 'assert';
import type { Engine } from '../../engine/src/engine';
import { indexedWorkspace, positionOf, type IndexedWorkspace } from './workspace.helpers';

const FILES: Record<string, string> = {
  'include/caps.h': 'enum cap { CAP_READ = 1, CAP_WRITE = 2 };\n#ifdef USE_WIN_HANDLES\n#include "plat/win.h"\n#else\n#include "plat/unix.h"\n#endif\n',
  'include/sizes.h': '#ifdef BIG\n#define STORE_MIN 8\n#else\n#define STORE_MIN 1\n#endif\nstruct widget { int id; };\n',
  'include/plat/win.h': 'typedef void *handle_t;\n',
  'include/plat/unix.h': 'typedef int handle_t;\n',
  'include/store.h': '#ifndef STORE_H\n#define STORE_H\n#include "caps.h"\ntypedef struct store { int size; } store_t;\nint store_put(store_t *s, int v);\n#define STORE_MAX 64\n#endif\n',
  'src/store.c': '#include "store.h"\n\nint store_put(store_t *s, int v) {\n  return s->size + v;\n}\n',
  'src/main.c': '#include <stdio.h>\n#include "store.h"\nstruct widget;\n#include "sizes.h"\nint main(void) {\n  struct widget *w = 0;\n  int least = STORE_MIN;\n  handle_t h = 0;\n  store_t box = {0};\n  int total = store_put(&box, STORE_MAX + CAP_READ);\n  printf("%d", total);\n  return total;\n}\n',
  // Same spellings outside main.c's include graph: the graph decides, not the name.
  'tools/caps.h': '#define CAP_READ 9\n',
  'tools/inspect.c': '#include "caps.h"\nint limit(void) { return CAP_READ; }\n',
  // C++: namespaces and the include graph decide (cpp.ts).
  'tools/probe.cpp': '#include "../include/caps.h"\n#include "fmt.h"\nnamespace tools {\nint limit() { return CAP_READ; }\n}\nint probe() { return tools::limit() + CAP_WRITE; }\ntemplate <typename Char> FMT_CONSTEXPR Char same(Char c) { return c; }\n',
  // C++ macros resolve: the preprocessor replaces them before any C++ lookup.
  'tools/fmt.h': '#ifdef _WIN32\n#define FMT_CONSTEXPR\n#else\n#define FMT_CONSTEXPR constexpr\n#endif\n',
};

describe('Engine.symbolAt resolves C names through #include', function () {
  this.timeout(60_000);
  let workspace: IndexedWorkspace;
  let engine: Engine;
  before(async () => {
    workspace = await indexedWorkspace(FILES, 'rr-includes');
    engine = workspace.engine;
  });
  after(() => workspace.dispose());

  const at = (rel: string, needle: string, offset = 0) => engine.symbolAt(rel, ...positionOf(FILES[rel], needle, offset));
  const defines = async (rel: string, needle: string, file: string, line: number, offset = 0) => {
    const s = await at(rel, needle, offset);
    assert.strictEqual(s?.resolution, 'defines', `${rel} ${needle}: ${JSON.stringify(s)}`);
    assert.deepStrictEqual([s.definitions[0].file, s.definitions[0].declLine + 1], [file, line], `${rel} ${needle}`);
  };

  it('a call whose prototype is in an included header reaches its body in the source file', async () => {
    await defines('src/main.c', 'store_put(&box', 'src/store.c', 3);
  });

  it('a typedef, a macro and an enumerator of the included headers, not same-named ones elsewhere', async () => {
    await defines('src/main.c', 'store_t box', 'include/store.h', 4);
    await defines('src/main.c', 'STORE_MAX', 'include/store.h', 6);
    await defines('src/main.c', 'CAP_READ);', 'include/caps.h', 1);
    await defines('tools/inspect.c', 'CAP_READ;', 'tools/caps.h', 1);
  });

  it('a tag declared ahead resolves to the header that defines its fields', async () => {
    await defines('src/main.c', 'widget *w', 'include/sizes.h', 6);
  });

  it('a name two headers of one depth define (branches of a build option), or one header twice (#if branches), keeps its candidates', async () => {
    for (const needle of ['handle_t h', 'STORE_MIN']) {
      const s = await at('src/main.c', needle);
      assert.strictEqual(s?.resolution, 'candidates', `${needle}: ${JSON.stringify(s)}`);
    }
  });

  it('a C++ macro of the included headers resolves (the platform\'s branch); a template parameter is local', async () => {
    if (process.platform !== 'win32') await defines('tools/probe.cpp', 'FMT_CONSTEXPR', 'tools/fmt.h', 4);
    assert.strictEqual(await at('tools/probe.cpp', 'Char c'), null);
  });

  it('a library call and a local give no "defines"', async () => {
    assert.strictEqual(await at('src/main.c', 'printf'), null);
    assert.strictEqual(await at('src/main.c', 'box,'), null);
  });

  it('C++ names resolve by namespace and the include graph (cpp.ts), not by spelling', async () => {
    await defines('tools/probe.cpp', 'limit() +', 'tools/probe.cpp', 4);
    await defines('tools/probe.cpp', 'CAP_WRITE', 'include/caps.h', 1);
    await defines('tools/probe.cpp', 'CAP_READ;', 'include/caps.h', 1);
  });
});
