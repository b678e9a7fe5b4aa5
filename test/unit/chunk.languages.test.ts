// One realistic fixture per language: chunk kinds, names, ranges, docs, calls and imports.
import * as assert from 'node:assert/strict';
import { Chunker } from '../../engine/src/chunk';
import type { ChunkedFile } from '../../engine/src/types';
import { assertCoversFile, byName, expectedOutline, fixture, outline } from './chunk.helpers';

describe('Chunker: languages', function () {
  this.timeout(10000); // first use of each grammar compiles its wasm
  let chunker: Chunker;
  before(async () => {
    chunker = await Chunker.create();
  });
  after(() => chunker.dispose());

  async function chunkFixture(name: string): Promise<ChunkedFile> {
    const content = fixture(name);
    const file = await chunker.chunk(`src/${name}`, content);
    assertCoversFile(content, file);
    return file;
  }

  it('maps paths to VS Code language ids', () => {
    assert.equal(chunker.languageForPath('a/b.ts'), 'typescript');
    assert.equal(chunker.languageForPath('a/b.TSX'), 'typescriptreact');
    assert.equal(chunker.languageForPath('b.jsx'), 'javascriptreact');
    assert.equal(chunker.languageForPath('x/y.py'), 'python');
    assert.equal(chunker.languageForPath('lib.h'), 'c');
    assert.equal(chunker.languageForPath('lib.hpp'), 'cpp');
    assert.equal(chunker.languageForPath('README.md'), 'markdown');
    assert.equal(chunker.languageForPath('data.unknownext'), undefined);
    assert.equal(chunker.hasGrammar('rust'), true);
    assert.equal(chunker.hasGrammar('markdown'), false);
  });

  it('TypeScript: definitions with docs, signatures, calls and imports', async () => {
    const file = await chunkFixture('sample.ts');
    assert.equal(file.language, 'typescript');
    assert.deepEqual(outline(file), expectedOutline('sample.ts'));
    const fetchUser = byName(file, 'fetchUser');
    assert.equal(fetchUser.signature, 'export async function fetchUser(id: string): Promise<User>');
    assert.equal(fetchUser.doc, 'Fetches one user.\nRetries on network errors.');
    assert.deepEqual(fetchUser.calls.sort(), ['Client', 'get', 'parseUser', 'retry']);
    assert.equal(byName(file, 'User').doc, 'A user as returned by the API.');
    assert.equal(byName(file, 'parseUser').signature, 'export const parseUser = (raw: unknown): User');
    assert.deepEqual(file.imports, [
      { local: 'readFile', imported: 'readFile', source: 'node:fs/promises' },
      { local: 'Client', imported: 'default', source: './client' },
      { local: 'ClientOptions', imported: 'Options', source: './client' },
      { local: 'retry', imported: 'retry', source: './client' },
      { local: 'path', imported: '*', source: 'path' },
    ]);
    // The method of the (small, unsplit) class is still a definition, with its owner.
    const get = file.definitions.find((d) => d.name === 'get');
    assert.deepEqual(get, { name: 'get', kind: 'method', startLine: 36, endLine: 43, signature: 'async get(id: string): Promise<User>', container: 'UserCache' });
  });

  it('TSX: components, JSX elements as calls', async () => {
    const file = await chunkFixture('sample.tsx');
    assert.equal(file.language, 'typescriptreact');
    const card = byName(file, 'UserCard');
    assert.equal(card.kind, 'function');
    assert.deepEqual([card.startLine, card.endLine], [7, 16]);
    assert.equal(card.doc, "Shows a user's name and avatar.");
    // Capitalised tags are component references; <div> is not.
    assert.deepEqual(card.calls.sort(), ['Avatar', 'Badge', 'setOpen', 'useState']);
    assert.deepEqual(byName(file, 'Props').kind, 'type');
    assert.deepEqual(file.imports.map((i) => i.local), ['React', 'useState', 'Avatar']);
  });

  it('JavaScript: functions, classes, CommonJS require and exports assignment', async () => {
    const file = await chunkFixture('sample.js');
    assert.deepEqual(outline(file), expectedOutline('sample.js'));
    assert.equal(byName(file, 'add').doc, 'Adds two numbers.');
    assert.deepEqual(byName(file, 'Counter').calls.sort(), ['add', 'format', 'writeFileSync']);
    assert.deepEqual(byName(file, 'makeCounter').calls, ['Counter']);
    assert.deepEqual(file.imports, [
      { local: 'fs', imported: 'default', source: 'fs' },
      { local: 'format', imported: 'format', source: './format.js' },
    ]);
  });

  it('JSX: arrow components and component calls', async () => {
    const file = await chunkFixture('sample.jsx');
    assert.equal(file.language, 'javascriptreact');
    const toolbar = byName(file, 'Toolbar');
    assert.deepEqual([toolbar.kind, toolbar.startLine, toolbar.endLine], ['function', 2, 8]);
    assert.deepEqual(toolbar.calls, ['Button']);
    assert.equal(toolbar.signature, 'export const Toolbar = ({ onSave })');
  });

  it('Python: decorators, leading comments, docstrings, methods and imports', async () => {
    const file = await chunkFixture('sample.py');
    assert.deepEqual(outline(file), [
      ['module', undefined, 0, 6],
      ['function', 'load_config', 9, 12],
      ['class', 'Trainer', 15, 37], // includes `# A trainer...` and `@dataclass` above it
      ['module', undefined, 40, 41],
    ]);
    assert.equal(byName(file, 'load_config').doc, 'Reads a config file.');
    const trainer = byName(file, 'Trainer');
    assert.equal(trainer.doc, 'Trains a model.\n\nKeeps track of the optimizer state.');
    assert.equal(trainer.signature, 'class Trainer(BaseModel):');
    const train = file.definitions.find((d) => d.name === 'train');
    assert.equal(train?.signature, 'def train(self, loader, epochs=1) -> None:');
    assert.equal(train?.kind, 'method');
    const create = file.definitions.find((d) => d.name === 'create');
    assert.equal(create?.startLine, 25, 'the @staticmethod line belongs to the method');
    // The nested function stays inside its (small) parent, but is still a definition.
    assert.ok(file.definitions.some((d) => d.name === 'inner' && d.kind === 'function'));
    assert.deepEqual(byName(file, 'Trainer').calls.sort(), ['Trainer', 'inner', 'l2', 'mean', 'step']);
    assert.deepEqual(file.imports, [
      { local: 'os', imported: '*', source: 'os.path' },
      { local: 'np', imported: '*', source: 'numpy' },
      { local: 'BaseModel', imported: 'Model', source: '..models.base' },
      { local: 'Optimizer', imported: 'Optimizer', source: '..models.base' },
      { local: 'losses', imported: 'losses', source: '.' },
    ]);
  });

  it('Go: types, functions, methods named Receiver.method, package imports', async () => {
    const file = await chunkFixture('sample.go');
    assert.deepEqual(outline(file), expectedOutline('sample.go'));
    const start = byName(file, 'Server.Start');
    assert.equal(start.signature, 'func (s *Server) Start() error');
    assert.equal(start.doc, 'Start listens on the address.');
    assert.deepEqual(start.calls.sort(), ['ListenAndServe', 'Println', 'Unmarshal']);
    assert.deepEqual(
      file.imports.map((i) => [i.local, i.source]),
      [['fmt', 'fmt'], ['nethttp', 'net/http'], ['yaml', 'gopkg.in/yaml.v3']],
    );
  });

  it('Java: class with annotated, documented methods; interface and enum', async () => {
    const file = await chunkFixture('sample.java');
    assert.deepEqual(outline(file), expectedOutline('sample.java'));
    assert.equal(byName(file, 'Cart').doc, 'A shopping cart.');
    const add = file.definitions.find((d) => d.name === 'add');
    assert.deepEqual([add?.kind, add?.startLine, add?.endLine, add?.container], ['method', 16, 20, 'Cart']);
    assert.ok(byName(file, 'Cart').calls.includes('requireNonNull'));
    assert.deepEqual(file.imports, [
      { local: 'List', imported: 'List', source: 'java.util' },
      { local: 'ArrayList', imported: 'ArrayList', source: 'java.util' },
      { local: 'requireNonNull', imported: 'requireNonNull', source: 'java.util.Objects' },
    ]);
  });

  it('Rust: attributes and /// docs, traits, impl blocks, use lists', async () => {
    const file = await chunkFixture('sample.rs');
    assert.deepEqual(outline(file), expectedOutline('sample.rs'));
    assert.equal(file.chunks[1].doc, 'A key-value cache.');
    const newFn = file.definitions.find((d) => d.name === 'new');
    assert.deepEqual([newFn?.kind, newFn?.container, newFn?.startLine], ['method', 'Cache', 14]);
    assert.ok(!file.definitions.some((d) => d.kind === 'class'), 'impl blocks are not definitions');
    assert.deepEqual(file.chunks[3].calls.sort(), ['Cache', 'flush', 'insert', 'new']);
    assert.deepEqual(file.imports, [
      { local: 'HashMap', imported: 'HashMap', source: 'std::collections' },
      { local: 'Set', imported: 'HashSet', source: 'std::collections' },
      { local: 'Store', imported: 'Store', source: 'crate::store' },
    ]);
  });

  it('C: typedef structs, enums, pointer-returning functions', async () => {
    const file = await chunkFixture('sample.c');
    assert.deepEqual(outline(file), expectedOutline('sample.c'));
    assert.equal(byName(file, 'Point').doc, 'A point in 2D.');
    assert.equal(byName(file, 'print_point').signature, 'static void print_point(const Point *p)');
    assert.equal(byName(file, 'print_point').doc, 'Prints a point.');
    assert.deepEqual(byName(file, 'main').calls, ['print_point']);
    // `#include "list.h"` is an import of that file (call graph, neighbouring files); `<stdio.h>` is not the repository's.
    assert.deepEqual(file.imports, [{ local: 'list', imported: '*', source: 'list.h' }]);
  });

  it('C/C++ headers: a .h with C++ syntax is parsed as C++, a plain C header stays C', async () => {
    const cpp = await chunker.chunk('include/ui/widget.h', fixture('widget.h'));
    assert.equal(cpp.language, 'cpp');
    assert.ok(cpp.definitions.some((d) => d.name === 'Widget' && d.kind === 'class'), 'the class is a definition');
    assert.ok(cpp.definitions.some((d) => d.name === 'clamp_size'), 'the template function is a definition');
    assert.deepEqual(cpp.imports, [{ local: 'base', imported: '*', source: 'base.h' }]);
    const c = await chunker.chunk('src/plain.h', fixture('plain.h'));
    assert.equal(c.language, 'c');
    assert.ok(c.definitions.some((d) => d.name === 'node'));
  });

  it('C++: classes in namespaces, out-of-class template methods', async () => {
    const file = await chunkFixture('sample.cpp');
    assert.deepEqual(outline(file), expectedOutline('sample.cpp'));
    assert.equal(byName(file, 'Shape').doc, 'A shape with an area.');
    assert.equal(byName(file, 'Box.get').signature, 'template <typename T> T Box<T>::get() const');
    assert.deepEqual(byName(file, 'total_area').calls.sort(), ['area', 'max']);
    assert.ok(file.definitions.some((d) => d.name === 'area' && d.container === 'Circle'));
  });
});
