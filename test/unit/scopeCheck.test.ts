// Suggestions checked against the text after the cursor and the names bound there
// (engine/src/complete/scopeCheck.ts, cursorNames.ts) on a real index of test/fixtures/scope-repo:
// the built-in source stops where the following lines resume, withdraws a block using a name the
// cursor's scope lacks, and offers a statement the same file already wrote.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import type { EditorState } from '../../engine/src/types';
import { vetSuggestion } from '../../engine/src/complete/scopeCheck';
import { namesAtCursor } from '../../engine/src/complete/cursorNames';
import type { LoadedGrammar } from '../../engine/src/chunk/grammar';
import { indexedWorkspace, type IndexedWorkspace } from './workspace.helpers';
import { LlamaCppInfillBackend } from '../../extension/src/backends/llamacpp';
import { modelCompletion, type ModelCompletionInput } from '../../extension/src/backends/pipeline';
import { modelServer } from './modelServer.helpers';

const FIXTURE = path.resolve(__dirname, '../../../test/fixtures/scope-repo');

function fixtureFiles(dir = FIXTURE, rel = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const r = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) Object.assign(out, fixtureFiles(path.join(dir, e.name), r));
    else if (e.name !== 'README.md') out[r] = fs.readFileSync(path.join(dir, e.name), 'utf8');
  }
  return out;
}

/** A bare (not member) use of `name` in `text`. */
const usesBare = (text: string, name: string) => new RegExp(`(^|[^\\w$.])${name}\\b`).test(text);

const PY_BEFORE = [
  'import os',
  '',
  'from .hub import cached_file, CONFIG_NAME',
  '',
  '',
  'def load_remote_config(path, cache_dir=None, revision=None, token=None):',
  '    """Reads a configuration from the hub only."""',
  '    if os.path.isdir(path):',
  '        return os.path.join(path, CONFIG_NAME)',
  '    resolved = cached_file(',
  '        path,',
  '        filename=',
].join('\n');
const PY_AFTER = [
  '',
  '        cache_dir=cache_dir,',
  '        revision=revision,',
  '        token=token,',
  '    )',
  '    return resolved',
  '',
].join('\n');

const TS_BEFORE = [
  "import { testServerAndClientResource } from '../testing/resource';",
  "import { t } from '../testing/trpc';",
  '',
  'const webhookRouter = t.router({ deliver: t.procedure.query(() => ({ id: 2, delivered: true })) });',
  '',
  "describe('webhooks', () => {",
  "  test('delivers the queued payload once', async () => {",
  '    await using ctx = testS',
].join('\n');
const TS_AFTER = '\n  });\n});\n';

const RS_BEFORE = [
  'use crate::builder::{Id, ValueSource};',
  'use crate::parser::MatchedArg;',
  '',
  'impl FlagMatcher {',
  '    pub(crate) fn begin_external(&mut self, source: ValueSource) {',
  '        let id = Id::from_static_ref(Id::FLAG);',
  '        let entry = self.entry_for(id).or_default();',
  '',
].join('\n');
const RS_AFTER = '        entry.set_source(source);\n    }\n}\n';

function state(file: string, prefix: string, suffix: string, language: string): EditorState {
  return { file, prefix, suffix, language, line: prefix.split('\n').length - 1 };
}

describe('completions that respect scope and the text after the cursor', function () {
  this.timeout(60_000);
  let ws: IndexedWorkspace;
  before(async () => {
    ws = await indexedWorkspace(fixtureFiles(), 'rr-scope');
  });
  after(async () => ws?.dispose());

  it('stops a keyword-argument block where the arguments below the cursor resume', async () => {
    const r = await ws.engine.complete(state('py/config/remote.py', PY_BEFORE, PY_AFTER, 'python'));
    assert.ok(r?.text, 'the call is continued');
    assert.strictEqual(r.text, 'CONFIG_NAME,', `offered:\n${r.text}`);
  });

  it('withdraws a block using `router` where only `webhookRouter` is in scope', async () => {
    const r = await ws.engine.complete(state('ts/tests/webhook.test.ts', TS_BEFORE, TS_AFTER, 'typescript'));
    for (const text of [r?.text ?? '', ...(r?.alternatives ?? []).map((a) => a.text)]) {
      assert.ok(!usesBare(text, 'router'), `a suggestion uses the unbound \`router\`:\n${text}`);
    }
  });

  it('withdraws a Rust line using `arg` where the function has no `arg`', async () => {
    const r = await ws.engine.complete(state('rs/parser/external.rs', RS_BEFORE, RS_AFTER, 'rust'));
    for (const text of [r?.text ?? '', ...(r?.alternatives ?? []).map((a) => a.text)]) {
      assert.ok(!usesBare(text, 'arg'), `a suggestion uses the unbound \`arg\`:\n${text}`);
    }
  });

  it('offers a statement the same file wrote earlier', async () => {
    const usage = fixtureFiles()['rs/output/usage.rs'];
    const cut = usage.lastIndexOf('    }\n}');
    const prefix = usage.slice(0, cut) + '    }\n\n    pub(crate) fn create_help_usage(&self, incl_reqs: bool) -> StyledStr {\n        let mut styled = ';
    const r = await ws.engine.complete(state('rs/output/usage.rs', prefix, '\n    }\n}\n', 'rust'));
    assert.strictEqual(r?.text, 'StyledStr::new();');
  });

  it('cuts a model answer at its first line with an unbound name, and keeps one whose names are bound', async () => {
    const st = state('ts/tests/webhook.test.ts', TS_BEFORE.replace(/testS$/, ''), TS_AFTER, 'typescript');
    const answer = 'testServerAndClientResource(webhookRouter);\n    const result = await ctx.client.deliver.query({ id: 2 });\n    expect(shape).toEqual(result);';
    const vetted = await ws.engine.vet(st, answer);
    assert.strictEqual(vetted.text, 'testServerAndClientResource(webhookRouter);\n    const result = await ctx.client.deliver.query({ id: 2 });');
    assert.deepStrictEqual(vetted.cut, { line: 2, reason: 'unbound', name: 'shape' });
    const bound = 'testServerAndClientResource(webhookRouter);\n    const result = await ctx.client.deliver.query({ id: 2 });';
    assert.strictEqual((await ws.engine.vet(st, bound)).text, bound);
  });

  it("cuts a model server's multi-line answer before its unbound name, unless model output is kept", async () => {
    const st = state('ts/tests/webhook.test.ts', TS_BEFORE.replace(/testS$/, ''), TS_AFTER, 'typescript');
    const answer = 'testServerAndClientResource(webhookRouter);\n    const result = await ctx.client.deliver.query({ id: 2 });\n    expect(shape).toEqual(result);';
    const server = await modelServer(answer, { flavor: 'llamacpp' });
    try {
      const ask = (vet: boolean) => modelCompletion({
        trusted: true, state: st, backend: new LlamaCppInfillBackend({ baseUrl: server.base }), retrieve: async () => [],
        budget: { contextTokens: 500, prefixTokens: 1000 }, maxTokens: 64, timeoutMs: 5000, signal: new AbortController().signal,
        // What completionSource.ts passes unless `reporecall.completion.keepModelOutput` is on.
        ...(vet ? { vet: async (text: string) => (await ws.engine.vet(st, text)).text } : {}),
      } as ModelCompletionInput);
      assert.strictEqual((await ask(true))?.text, 'testServerAndClientResource(webhookRouter);\n    const result = await ctx.client.deliver.query({ id: 2 });');
      assert.strictEqual((await ask(false))?.text, answer);
    } finally {
      await server.close();
    }
  });
});

describe('scopeCheck (text rules)', () => {
  const ctx = (prefix: string, suffix: string, python = false) => ({ prefix, suffix, python });

  it('closes a bracket only when the text after the cursor does not', () => {
    const prefix = 'x = call(\n    a,\n    b=';
    assert.strictEqual(vetSuggestion('1,\n    c=2,\n)', ctx(prefix, '\n)\n', true)).text, '1,\n    c=2,');
    assert.strictEqual(vetSuggestion('1,\n    c=2,\n)', ctx(prefix, '\n\nprint(x)\n', true)).text, '1,\n    c=2,\n)');
    // The `}` of the block being written, where the text below closes only the function around it.
    assert.strictEqual(vetSuggestion('  }', ctx('function f(x) {\n  if (x) {\n    run();\n', '\n  return x;\n}\n')).text, '  }');
    // A closer of the suggestion's own bracket is not the suffix's.
    assert.strictEqual(vetSuggestion('if (ok) {\n  run();\n}', ctx('function f() {\n  ', '\n}\n')).text, 'if (ok) {\n  run();\n}');
  });

  it('keeps a cut block syntactically whole (no header without its body)', () => {
    const v = vetSuggestion('for item in items:\n    total += item\nreturn total', ctx('def f(items):\n    total = 0\n    ', '\n    return total\n', true));
    assert.strictEqual(v.text, 'for item in items:\n    total += item');
    assert.strictEqual(v.cut?.reason, 'suffix');
  });

  it('reads a suggestion inside a docstring or comment as prose: no names to bind, no brackets to close', () => {
    const none = { has: () => false };
    // DEV (huggingface_evaluate): lines of a docstring and its `>>>` example were withdrawn for their words.
    const doc = 'def compute(predictions):\n    """Computes the score.\n\n    Args:\n        predictions: list of\n        ';
    const after = '\n    """\n    return {"score": 1}\n';
    assert.strictEqual(vetSuggestion('tokens separated by spaces.', { ...ctx(doc, after, true), names: none }).text, 'tokens separated by spaces.');
    const example = 'def compute(predictions):\n    """Example:\n        >>> print(results)\n        {\'f1\': 0.8,\n';
    assert.strictEqual(vetSuggestion('         \'recall\': 0.5}', ctx(example, '\n    """\n', true)).text, '         \'recall\': 0.5}');
    assert.strictEqual(vetSuggestion('   }', ctx('/**\n * Options: {\n *   retries: 3,\n *', '\n */\nexport const x = 1;\n')).text, '   }');
    // A doctest's call the docstring's next line closes: the suggestion stops before its `)`.
    const doctest = 'def compute():\n    """\n    >>> r = m.compute(references=[0, 1],\n    ...     ';
    assert.strictEqual(vetSuggestion('predictions=[1, 1])', ctx(doctest, '\n    ...     normalize=True)\n    """\n', true)).text, 'predictions=[1, 1]');
    assert.strictEqual(vetSuggestion('predictions=[1, 1])', ctx(doctest, '\n    >>> print(r)\n    """\n', true)).text, 'predictions=[1, 1])');
    // In code the same words are names, and the same closer is the suffix's.
    assert.strictEqual(vetSuggestion('tokens separated', { ...ctx('def f():\n    ', '\n', true), names: none }).text, '');
    assert.strictEqual(vetSuggestion('}', ctx('const o = {\n  a: 1,\n', '\n};\n')).text, '');
  });

  it('by text (a parse past its deadline), binds the function\'s locals above a `for (` line', () => {
    // Under load the editor's text misses its parse deadline; a `for (…)` line was taken for a C-like function header.
    const prefix = "import { Point } from './point';\n\nexport function probe(sorted: Point[]): Point[] {\n  const lower: Point[] = [];\n  for (const p of sorted) {\n    ";
    const grammar = { name: 'typescript', locals: {} } as unknown as LoadedGrammar;
    const names = namesAtCursor({ prefix, suffix: '\n  }\n  return lower;\n}\n', language: 'typescript', grammar, parse: () => null, defined: () => false })!;
    assert.deepStrictEqual(['lower', 'p', 'sorted', 'Point'].map((n) => names.has(n)), [true, true, true, true]);
    assert.strictEqual(names.has('crossProduct'), false);
  });

  it('by text in Python, starts the function at its `def` (not at `assert (`) and binds `from` imports and module assignments', () => {
    // DEV (pytorch_rl): a parameter tested in `if safe and …` lines was unbound after an `assert ((…` line.
    const prefix = 'from torch import nn\nFILE_CONTENT = "x"\n\n\nclass TestVmap:\n    def test_vmap(self, safe, spec_type):\n' +
      '        if not safe:\n            assert ((out > 0.1) | (out < -0.1)).any()\n';
    const grammar = { name: 'python', locals: {} } as unknown as LoadedGrammar;
    const names = namesAtCursor({ prefix, suffix: '\n        return out\n', language: 'python', grammar, parse: () => null, defined: () => false })!;
    assert.deepStrictEqual(['safe', 'spec_type', 'nn', 'FILE_CONTENT'].map((n) => names.has(n)), [true, true, true, true]);
    assert.strictEqual(names.has('torch_module'), false);
  });
});
