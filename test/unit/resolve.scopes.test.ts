// Names as code (issue 29), languages with scopes only (Rust, Go, Java, C, C++; locals queries in
// grammars/queries/locals/): a parameter, a local or a pattern binding gives no hover, though
// another file defines a function of the same name (clap's `arg_matcher.rs` named locals by
// spelling); a file-level name and a member keep the name lookup's candidates.
import * as assert from 'assert';
import { Chunker } from '../../engine/src/chunk';
import type { Engine } from '../../engine/src/engine';
import { indexedWorkspace, positionOf, type IndexedWorkspace } from './workspace.helpers';

const FILES: Record<string, string> = {
  // Repository functions named like the locals below.
  'src/defs.rs': 'pub fn arg(x: u32) -> u32 {\n    x\n}\npub fn matcher() {}\npub fn value() {}\npub fn id() {}\npub fn item() {}\npub fn lookup(v: u32) -> Option<u32> {\n    Some(v)\n}\n',
  'src/arg_matcher.rs': [
    'pub fn check(arg: u32, (matcher, _): (u32, u32)) -> u32 {',
    '    let value = arg + matcher;',
    '    if let Some(id) = lookup(value) {',
    '        return id;',
    '    }',
    '    match value {',
    '        Some(Pair { item, .. }) => item,',
    '        _ => [1].iter().map(|arg| arg + 1).sum(),',
    '    }',
    '}',
    '',
  ].join('\n'),
  'defs.go': 'package main\n\nfunc total() int { return 0 }\nfunc ctx() int { return 0 }\n',
  'use.go': 'package main\n\nfunc sum(ctx int, xs []int) int {\n\ttotal := 0\n\tfor _, x := range xs {\n\t\ttotal += x + ctx\n\t}\n\treturn total\n}\n',
  'Defs.java': 'class Defs {\n  static int count() { return 0; }\n  static int name() { return 0; }\n}\n',
  'Use.java': 'class Use {\n  int run(String name) {\n    int count = name.length();\n    for (String part : name.split(",")) { count += part.length(); }\n    return count + Defs.count();\n  }\n}\n',
  'defs.c': 'int buffer(void) { return 0; }\nint length(void) { return 0; }\n',
  'use.c': 'int fill(char *buffer, int length) {\n  int total = 0;\n  for (int i = 0; i < length; i++) total += buffer[i];\n  return total + length;\n}\n',
  'defs.cpp': 'int value() { return 0; }\nint pairs() { return 0; }\nint args() { return 0; }\n',
  'pack.cpp': 'template <typename... T>\nvoid forward_all(int first, T&&... args) {\n  consume(first, args...);\n}\n',
  'use.cpp': 'int sum(const std::vector<int>& pairs) {\n  int total = 0;\n  for (auto& value : pairs) total += value;\n  auto add = [](int value) { return value; };\n  return add(total) + ::value();\n}\n',
};

describe('Engine.symbolAt gives nothing for locals in Rust, Go, Java, C and C++', function () {
  this.timeout(60_000);
  let workspace: IndexedWorkspace;
  let engine: Engine;
  before(async () => {
    workspace = await indexedWorkspace(FILES, 'rr-scopes');
    engine = workspace.engine;
  });
  after(() => workspace.dispose());

  const at = (rel: string, needle: string, offset = 0, nth = 0) => engine.symbolAt(rel, ...positionOf(FILES[rel], needle, offset, nth));
  const none = async (rel: string, needle: string, offset = 0, nth = 0) => {
    const s = await at(rel, needle, offset, nth);
    assert.strictEqual(s, null, `${rel} ${needle}: ${JSON.stringify(s)}`);
  };

  it('loads every language\'s grammar with its locals query (a query that does not compile loses the grammar)', async () => {
    const chunker = await Chunker.create();
    try {
      for (const file of ['a.rs', 'a.go', 'A.java', 'a.c', 'a.cpp', 'a.py', 'a.ts', 'a.tsx', 'a.js']) {
        const grammar = await chunker.grammarFor(file, '');
        assert.ok(grammar?.locals, `${file}: ${grammar ? 'no locals query' : 'no grammar'}`);
      }
    } finally {
      await chunker.dispose();
    }
  });

  it('Rust: parameters, let, if let, match arm and closure bindings', async () => {
    await none('src/arg_matcher.rs', 'arg + matcher');
    await none('src/arg_matcher.rs', 'matcher;');
    await none('src/arg_matcher.rs', 'value = arg');
    await none('src/arg_matcher.rs', 'value) {');
    await none('src/arg_matcher.rs', 'id;');
    await none('src/arg_matcher.rs', 'item,');
    await none('src/arg_matcher.rs', 'arg + 1');
    // A name no scope of the file binds keeps the name lookup's candidates.
    const call = await at('src/arg_matcher.rs', 'lookup(value)');
    assert.strictEqual(call?.resolution, 'candidates', JSON.stringify(call));
  });

  it('Go: parameters, short variable declarations, range variables', async () => {
    await none('use.go', 'x + ctx', 4);
    await none('use.go', 'total += x');
    await none('use.go', 'return total');
  });

  it('Java: parameters, locals, enhanced for variables; a qualified call keeps its candidates', async () => {
    await none('Use.java', 'name.split');
    await none('Use.java', 'count += part');
    await none('Use.java', 'count + Defs');
    const member = await at('Use.java', 'count();');
    assert.ok(member && member.definitions.some((d) => d.file === 'Defs.java'), JSON.stringify(member));
  });

  it('C: pointer and plain parameters, for-loop locals', async () => {
    await none('use.c', 'buffer[i]');
    await none('use.c', 'length; i++');
    await none('use.c', 'total + length', 8);
  });

  it('C++: reference parameters, range-for bindings, lambda parameters; a qualified name keeps its candidates', async () => {
    await none('use.cpp', 'pairs) total');
    await none('use.cpp', 'value;');
    await none('use.cpp', 'value; }');
    const global = await at('use.cpp', '::value', 2);
    assert.ok(global && global.definitions.some((d) => d.file === 'defs.cpp'), JSON.stringify(global));
  });

  it('C++: a parameter pack (`T&&... args`) is a local (fmt color.h: `args` counted unbound)', async () => {
    await none('pack.cpp', 'args...)');
    await none('pack.cpp', 'first, args');
  });
});
