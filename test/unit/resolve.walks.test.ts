// The resolver's whole-file passes without a JavaScript walk over every node (issue 29, hover
// provider p95 ≤ 100 ms in bench:ui: a buffer's scopes and module summary were 100-300 ms of the
// first hover after an edit of a 2,800-line file). namedOfTypes must visit the nodes the stack
// walk it replaces visited, in its order (a summary's first or last write wins), and
// enclosingScopes must give each binding the scopes a walk up its parents finds.
import * as assert from 'assert';
import type { Node } from 'web-tree-sitter';
import { Chunker } from '../../engine/src/chunk';
import { enclosingScopes } from '../../engine/src/resolve/scopes';
import { namedOfTypes } from '../../engine/src/resolve/typedNodes';

const TS = [
  'export class Outer {',
  '  make() { return class Inner { run(x: number) { const y = x; return (z: number) => y + z; } }; }',
  '}',
  'function free(a: number) { class Local {} for (const b of [a]) { let c = b; } }',
  'const obj = { m(p: string) { const q = p; } };',
  'abstract class Shape { abstract area(): number; }',
  '',
].join('\n');
const PY = [
  'class A:',
  '    def f(self, x):',
  '        class B:',
  '            def g(self, y):',
  '                return [z for z in y]',
  '        return B',
  '',
  'def h(k):',
  '    return lambda m: m + k',
  '',
].join('\n');

/** The walk namedOfTypes replaces: pop a node, visit it, push its named children in order. */
function stackWalk(root: Node, types: ReadonlySet<string>): Node[] {
  const out: Node[] = [];
  const stack: Node[] = [root];
  while (stack.length) {
    const n = stack.pop()!;
    if (n.id !== root.id && types.has(n.type)) out.push(n);
    for (const c of n.namedChildren) if (c) stack.push(c);
  }
  return out;
}

describe('resolver walks', function () {
  this.timeout(30_000);
  let chunker: Chunker;
  before(async () => {
    chunker = await Chunker.create();
  });
  after(() => chunker.dispose());

  const parse = async (file: string, text: string) => {
    const grammar = (await chunker.grammarFor(file, text))!;
    return { grammar, tree: grammar.parser.parse(text)! };
  };

  for (const [file, text, types] of [
    ['a.ts', TS, ['class_declaration', 'abstract_class_declaration', 'class', 'variable_declarator', 'function_declaration', 'method_definition']],
    ['a.py', PY, ['class_definition', 'function_definition', 'lambda']],
  ] as const) {
    it(`namedOfTypes visits what the stack walk visits, in its order (${file})`, async () => {
      const { tree } = await parse(file, text);
      try {
        const walked = stackWalk(tree.rootNode, new Set(types)).map((n) => `${n.type}@${n.startIndex}`);
        assert.ok(walked.length >= 6, 'the fixture has nested nodes of these types');
        assert.deepStrictEqual(namedOfTypes(tree.rootNode, types).map((n) => `${n.type}@${n.startIndex}`), walked);
        // Anonymous tokens of the same name (TypeScript's `class` keyword) are not nodes of the type.
        assert.ok(namedOfTypes(tree.rootNode, ['class']).every((n) => n.isNamed));
      } finally {
        tree.delete();
      }
    });

    it(`enclosingScopes gives each binding its ancestor scopes, innermost first (${file})`, async () => {
      const { grammar, tree } = await parse(file, text);
      try {
        const captures = grammar.locals!.captures(tree.rootNode);
        const scopes = captures.filter((c) => c.name === 'local.scope').map((c) => c.node);
        const ids = captures.filter((c) => c.name.startsWith('local.definition.')).map((c) => c.node);
        const scopeIds = new Set(scopes.map((s) => s.id));
        const walked = ids.map((id) => {
          const out: number[] = [];
          for (let p = id.parent; p; p = p.parent) if (scopeIds.has(p.id)) out.push(p.id);
          return out;
        });
        assert.ok(walked.some((w) => w.length >= 3), 'some binding sits three scopes deep');
        assert.deepStrictEqual(enclosingScopes(scopes, ids)?.map((s) => s.map((n) => n.id)), walked);
      } finally {
        tree.delete();
      }
    });
  }

  it('enclosingScopes declines when two scopes share a range (which is inner is not in the ranges)', async () => {
    const { tree } = await parse('a.ts', TS);
    try {
      const fn = tree.rootNode.descendantsOfType('function_declaration')[0]!;
      const id = fn.childForFieldName('parameters')!.descendantsOfType('identifier')[0]!;
      assert.strictEqual(enclosingScopes([fn, fn], [id]), undefined);
    } finally {
      tree.delete();
    }
  });
});
