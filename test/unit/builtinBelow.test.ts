// The built-in completion reading what is below the cursor to tell apart continuations the lines
// before it do not: siblings tied on every feature (suffixFit.ts `untie`), a fallback guess of a line
// the line below has spoken against (builtin.ts), and a suggestion that ends a statement above a
// line indented inside a block (scopeCheck.ts check 4). Fixtures are shaped as the bench-langs
// repositories write them (retrofit's scheduler tests, ripgrep's `Sink`, gson's adapters, zap's benchmarks).
import * as assert from 'assert';
import { completeFromSources } from '../../engine/src/complete/builtin';
import { vetSuggestion } from '../../engine/src/complete/scopeCheck';
import type { CompletionSource } from '../../engine/src/complete/lines';

/** A test class whose sibling tests differ only in their names. */
const SCHEDULER_TESTS = [
  'public final class ObservableWithSchedulerTest {',
  '  @Rule public final MockWebServer server = new MockWebServer();',
  '',
  '  @Test',
  '  public void bodyUsesScheduler() {',
  '    server.enqueue(new MockResponse());',
  '    observer.assertComplete();',
  '  }',
  '',
  '  @Test',
  '  public void responseUsesScheduler() {',
  '    server.enqueue(new MockResponse());',
  '    observer.assertComplete();',
  '  }',
  '',
  '  @Test',
  '  public void resultUsesScheduler() {',
  '    server.enqueue(new MockResponse());',
  '    observer.assertComplete();',
  '  }',
  '}',
];
const sourcesOf = (files: [string, string[]][]): CompletionSource[] => files.map(([file, lines]) => ({ file, lines, from: 0, to: lines.length }));

describe('built-in completion: what is below the cursor tells continuations apart', () => {
  const sources = sourcesOf([['rxjava2/ObservableWithSchedulerTest.java', SCHEDULER_TESTS], ['rxjava2/FlowableWithSchedulerTest.java', SCHEDULER_TESTS]]);
  const body = '\n    server.enqueue(new MockResponse());\n    observer.assertComplete();\n  }\n';
  const at = (suffix: string) =>
    completeFromSources({ file: 'rxjava3/ObservableWithSchedulerTest.java', prefix: SCHEDULER_TESTS.slice(0, 10).join('\n') + '\n', line: 10, language: 'java', suffix }, sources, { idf: (t) => (/^[A-Za-z_]/.test(t) ? 2 : 0.2) });

  it('of two tied sibling continuations, offers the one the file does not already have below', () => {
    // `responseUsesScheduler` and `resultUsesScheduler` follow the same lines in both copies.
    const r = at(`${body}\n  @Test\n  public void responseUsesScheduler() {${body}}\n`);
    assert.strictEqual(r?.text, '  public void resultUsesScheduler() {', JSON.stringify(r));
    assert.strictEqual(at(`${body}\n  @Test\n  public void resultUsesScheduler() {${body}}\n`)?.text, '  public void responseUsesScheduler() {');
  });

  it('abstains where tied continuations stay tied after the text below (the order of their text would choose)', () => {
    const r = at(`${body}}\n`);
    assert.ok(r && !r.text, JSON.stringify(r));
    assert.match(r.abstained ?? '', /2 continuations tie/);
  });

  it('offers no fallback guess of the line that the copies continue with and the line below speaks against', () => {
    // ripgrep: three `Sink` impls take `searcher` then `mat`; the trait below the cursor writes `_mat`.
    const impl = (name: string, match: string) => [`impl Sink for ${name} {`, '    type Error = io::Error;', '', '    fn matched(', '        &mut self,', '        searcher: &Searcher,', `        ${match}: &SinkMatch<'_>,`, '    ) -> Result<bool, io::Error> {', '        Ok(true)', '    }', '}'];
    const impls = sourcesOf([['src/json.rs', impl('Json', 'mat')], ['src/standard.rs', impl('Standard', 'mat')], ['src/summary.rs', impl('Summary', 'm')]]);
    const prefix = ['pub trait Sink {', '    type Error;', '', '    /// Called for each match.', '    fn matched(', '        &mut self,', ''].join('\n');
    const ask = (suffix?: string) => completeFromSources({ file: 'src/sink.rs', prefix, line: 6, language: 'rust', ...(suffix ? { suffix } : {}) }, impls, { idf: (t) => (/^[A-Za-z_]/.test(t) ? 1 : 0.2) });
    assert.strictEqual(ask()?.text, '        searcher: &Searcher,');
    // The copies' ranking declines it (none of them goes on with `_mat`); the line-shape guess would offer it.
    const r = ask("\n        _mat: &SinkMatch<'_>,\n    ) -> Result<bool, Self::Error>;\n");
    assert.ok(r && !r.text, JSON.stringify(r));
    assert.match(r.abstained ?? '', /confidence 0\.\d+ < 0\.5/);
  });
});

describe('scopeCheck: a statement ended above a line indented inside a block', () => {
  const ctx = (prefix: string, suffix: string, python = false) => ({ prefix, suffix, python });

  it('withdraws a closing line when the line below is indented deeper (the block goes on)', () => {
    // gson TypeAdapters: `};` offered where the method's body continues below.
    const prefix = '        @Override\n        public BitSet read(JsonReader in) throws IOException {\n          BitSet bitset = new BitSet();\n';
    const v = vetSuggestion('        };', ctx(prefix, '\n          int i = 0;\n          JsonToken tokenType = in.peek();\n'));
    assert.deepStrictEqual(v, { text: '', cut: { line: 0, reason: 'block' } });
    // The same closer above a line at its own indentation or shallower stands.
    assert.strictEqual(vetSuggestion('        };', ctx(prefix, '\n        @Override\n')).text, '        };');
  });

  it('keeps the first line of a block whose body is already below, and withdraws a complete statement', () => {
    // zap: `for pb.Next() {` and its body from a copy, where the file's own body follows the cursor.
    const prefix = '\t\tb.ResetTimer()\n\t\tb.RunParallel(func(pb *testing.PB) {\n';
    const below = '\n\t\t\t\tlogger.WithFields(fakeLogrusFields()).Info(getMessage(0))\n\t\t\t}\n\t\t})\n';
    const v = vetSuggestion('\t\t\tfor pb.Next() {\n\t\t\t\tlogger.Info(getMessage(0))\n\t\t\t}', ctx(prefix, below));
    assert.deepStrictEqual(v, { text: '\t\t\tfor pb.Next() {', cut: { line: 1, reason: 'block' } });
    // ripgrep: a whole `cmd.args(&[…]);` where the file's arguments follow, one a line, deeper.
    const args = vetSuggestion('    cmd.args(&["--multiline", "--trim"]);', ctx('    dir.create("haystack", HAYSTACK);\n', '\n        "--trim",\n        "-M8",\n    ]);\n'));
    assert.strictEqual(args.text, '');
  });

  it('leaves lines that may go on below: a brace-less `if`, an expression going on, a Python header; withdraws a Python statement above a deeper line', () => {
    assert.strictEqual(vetSuggestion('  if (nsent == 0)', ctx('void f(void) {\n', '\n    goto out;\n')).text, '  if (nsent == 0)');
    assert.strictEqual(vetSuggestion('  const value = ok ? { a: 1 }', ctx('function f(ok) {\n', '\n    : { a: 2 };\n')).text, '  const value = ok ? { a: 1 }');
    assert.strictEqual(vetSuggestion('    for item in items:', ctx('def f(items):\n', '\n        total += item\n', true)).text, '    for item in items:');
    assert.strictEqual(vetSuggestion('    total = 0', ctx('def f(items):\n', '\n        total += item\n', true)).text, '');
    // Inside brackets opened before the cursor, Python lines may be indented at will.
    assert.strictEqual(vetSuggestion('    a=1,', ctx('x = call(\n', '\n        b=2)\n', true)).text, '    a=1,');
  });
});
