// The built-in completion source (engine/src/complete/builtin.ts) on a real index of a fixture
// repository (tree-sitter chunks, BM25 on disk): adapted names, multi-line statements accepted line
// by line, abstention after bare closers, the same answer across files, alternatives in order.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { Engine } from '../../engine/src/engine';
import { completeFromSources, MIN_CONFIDENCE } from '../../engine/src/complete/builtin';
import type { CompletionResult } from '../../engine/src/api';
import type { EditorState } from '../../engine/src/types';
import type { Group } from '../../engine/src/complete/rank';
import { tempDir } from './tempDir';

const FIXTURE = path.resolve(__dirname, '../../../test/fixtures/completion-repo');

/** The editor state of `file` holding `text` with the cursor at its end (a new, empty line when it ends with \n). */
function stateOf(file: string, text: string, language: string): EditorState {
  return { file, prefix: text, line: text.split('\n').length - 1, language };
}

const PY_HEAD = [
  'class OmegaPipeline:',
  '    def __call__(self, prompt, batch_size, num_steps=50):',
  '        signal = self.encode_prompt_embeddings(prompt)',
  '',
].join('\n');

const PY_CALL = [
  '        latents = self.prepare_latents(',
  '            batch_size,',
  '            signal,',
  '            generator=self.generator,',
  '        )',
];

const TS_HEAD = [
  "import { collectSignals, dispatchSignals, type DispatchOptions } from '../util/signals';",
  '',
  'export function handleOmega(request: string[], options: DispatchOptions): number {',
  '  const signal = collectSignals(request);',
  '',
].join('\n');

const TS_CALL = [
  '  const delivered = dispatchSignals(',
  '    signal,',
  '    options.timeoutMs,',
  '    { retries: options.retries },',
  '  );',
];

describe('built-in completion', function () {
  this.timeout(60_000);
  let root: string;
  let indexDir: string;
  let engine: Engine;

  before(async () => {
    root = tempDir('rr-complete-');
    fs.cpSync(FIXTURE, root, { recursive: true });
    indexDir = tempDir('rr-complete-index-');
    engine = await Engine.open({ root, indexDir, dense: false });
    const stats = await engine.indexAll();
    assert.ok(stats.files >= 10, `files indexed: ${stats.files}`);
  });
  after(async () => {
    await engine.close();
    fs.rmSync(root, { recursive: true, force: true });
    fs.rmSync(indexDir, { recursive: true, force: true });
  });

  /** Opens `file` in the "editor" with `text` (the index sees the editor's view, as the product's overlay does). */
  async function completeIn(file: string, text: string, language: string): Promise<CompletionResult | null> {
    await engine.updateFile(file, text);
    try {
      return await engine.complete(stateOf(file, text, language));
    } finally {
      fs.rmSync(path.join(root, file), { force: true });
      await engine.updateFile(file);
    }
  }

  /**
   * Accepts the offer one line at a time (VS Code's accept-next-line: the text up to and including
   * the line break, the cursor then at column 0 of a new line) and asks again after each line;
   * returns every line as it ended up in the document.
   */
  async function acceptLineByLine(file: string, head: string, language: string, lines: number): Promise<string[]> {
    let doc = head;
    const accepted: string[] = [];
    for (let k = 0; k < lines; k++) {
      const r = await completeIn(file, doc, language);
      assert.ok(r, `an offer after ${k} accepted lines:\n${doc}`);
      const line = r.text.split('\n')[0];
      accepted.push(line);
      doc += line + '\n';
    }
    return accepted;
  }

  it('adapts a name the alignment maps: the copies bind batch_signals, cond_signals, text_embeds; the user binds signal', async () => {
    const r = await completeIn('py/pipelines/omega.py', PY_HEAD, 'python');
    assert.ok(r, 'an offer');
    assert.ok(r.text.includes('            signal,'), r.text);
    assert.ok(!/batch_signals|cond_signals|text_embeds/.test(r.text), `no copy's name is left: ${r.text}`);
    // Names the user's code does not contradict keep the repository's.
    assert.ok(r.text.includes('self.prepare_latents(') && r.text.includes('generator=self.generator'), r.text);
  });

  it('offers a multi-line Python call to its closing bracket, indented relative to the cursor, and accepting it line by line does not drift', async () => {
    const r = await completeIn('py/pipelines/omega.py', PY_HEAD, 'python');
    assert.ok(r);
    assert.strictEqual(r.text, PY_CALL.join('\n'));
    assert.deepStrictEqual(await acceptLineByLine('py/pipelines/omega.py', PY_HEAD, 'python', PY_CALL.length), PY_CALL);
    // The document is valid Python with the call's `)` at the statement's level, not one deeper.
    assert.strictEqual(PY_CALL[PY_CALL.length - 1], '        )');
  });

  it('offers a multi-line TypeScript call with the same indentation rules, accepted line by line without drift', async () => {
    const r = await completeIn('ts/handlers/omega.ts', TS_HEAD, 'typescript');
    assert.ok(r);
    assert.strictEqual(r.text, TS_CALL.join('\n'));
    assert.deepStrictEqual(await acceptLineByLine('ts/handlers/omega.ts', TS_HEAD, 'typescript', TS_CALL.length), TS_CALL);
  });

  it('completes the rest of a line the user has started, with the adapted name', async () => {
    const r = await completeIn('ts/handlers/omega.ts', TS_HEAD + '  const delivered = dispatch', 'typescript');
    assert.ok(r);
    assert.strictEqual(r.text.split('\n')[0], 'Signals(');
    assert.strictEqual(r.text.split('\n')[1], '    signal,');
  });

  it('offers nothing after bare closers, however many of them match', async () => {
    const text = [
      'export function cleanup(items: number[]): void {',
      '  items.forEach((item) => {',
      '    if (item > 1) {',
      '      console.log(item);',
      '    }',
      '  });',
      '',
    ].join('\n');
    const r = await completeIn('ts/util/cleanup.ts', text, 'typescript');
    assert.strictEqual(r, null, `offered after '});': ${JSON.stringify(r)}`);
  });

  it('gives the same answer for the same context in different files', async () => {
    const a = await completeIn('py/pipelines/omega.py', PY_HEAD, 'python');
    const b = await completeIn('py/other/deep/omega_two.py', PY_HEAD, 'python');
    const c = await completeIn('py/util/omega_three.py', PY_HEAD, 'python');
    assert.ok(a && b && c);
    assert.strictEqual(a.text, PY_CALL.join('\n'));
    const answer = (x: CompletionResult) => [x.text, ...(x.alternatives ?? []).map((y) => y.text)];
    assert.deepStrictEqual(answer(b), answer(a));
    assert.deepStrictEqual(answer(c), answer(a));
  });

  it('returns distinct alternatives best first: the continuation three pipelines agree on before the one a single pipeline has', async () => {
    const r = await completeIn('py/pipelines/omega.py', PY_HEAD, 'python');
    assert.ok(r && r.alternatives && r.alternatives.length >= 1, JSON.stringify(r));
    assert.ok(r.text.startsWith('        latents = self.prepare_latents('), r.text);
    const second = r.alternatives[0];
    assert.strictEqual(second.text, '        latents = sample_noise(batch_size, signal.shape)');
    assert.ok(r.confidence > second.confidence, `${r.confidence} > ${second.confidence}`);
    const texts = [r.text, ...r.alternatives.map((x) => x.text)];
    assert.strictEqual(new Set(texts).size, texts.length, 'alternatives are distinct');
  });

  it('says why it abstained when code continues the lines but the matched tokens are common', () => {
    const lines = ['const total = items.length;', 'report(total);'];
    const state = { file: 'a.ts', prefix: 'const total = items.length;\n', line: 1 };
    const sources = [{ file: 'b.ts', lines, from: 0, to: lines.length }];
    const common = completeFromSources(state, sources, { idf: () => 0.5 });
    assert.ok(common && !common.text, JSON.stringify(common));
    assert.match(common.abstained ?? '', /common tokens .*evidence \d+\.\d < 6/, JSON.stringify(common));
    const rare = completeFromSources(state, sources, { idf: () => 3 });
    assert.strictEqual(rare?.text, 'report(total);', JSON.stringify(rare));
    assert.strictEqual(rare?.abstained, undefined);
  });
  it('through the index: a Python if block is offered with its else branch, the copy\'s name adapted', async () => {
    const head = 'from .remote import fetch_remote_archive, read_archive_config\n\n\ndef load_archive_again(path):\n    config = read_archive_config(path)\n';
    const r = await completeIn('py/storage/again.py', head, 'python');
    assert.strictEqual(r?.text, ['    if config.cached:', '        data = config.cache()', '    else:', '        data = fetch_remote_archive(config)'].join('\n'), JSON.stringify(r));
  });

  it('through the index: a last line that only resembles three apps\' (another module loaded) gets what they continue it with', async () => {
    const head = 'import evaluate_widgets\nfrom evaluate_widgets.gradio import launch_gradio_widget\n\nmodule = evaluate_widgets.load_module("sari")\n';
    const r = await completeIn('py/widgets/sari_app.py', head, 'python');
    assert.strictEqual(r?.text, 'launch_gradio_widget(module)', JSON.stringify(r));
  });

  it('follows a Python if block through its else branch, and stops at the statement after it', () => {
    const copy = ['def load(path):', '    cfg = read_config(path)', '    if cfg.cached:', '        data = cfg.cache()', '    else:', '        data = fetch_remote(cfg)', '    return data'];
    const state = { file: 'c.py', prefix: 'def load_two(path):\n    cfg = read_config(path)\n', line: 2, language: 'python' };
    const r = completeFromSources(state, [{ file: 'b.py', lines: copy, from: 0, to: copy.length }], { idf: () => 3 });
    assert.strictEqual(r?.text, ['    if cfg.cached:', '        data = cfg.cache()', '    else:', '        data = fetch_remote(cfg)'].join('\n'), JSON.stringify(r));
  });

  describe('a last line that only resembles the copies', () => {
    // Three apps load a module with other arguments and launch it; the user loads another one.
    const copy = ['import evaluate', 'from evaluate.utils import launch_gradio_widget', '', 'module = evaluate.load("exact_match", module_type="comparison")', 'launch_gradio_widget(module)'];
    const sources = ['a', 'b', 'c'].map((n) => ({ file: `metrics/${n}/app.py`, lines: copy.map((l) => l.replace('exact_match', `${n}_match`)), from: 0, to: copy.length }));
    const idf = (t: string) => ({ evaluate: 2, load: 1.5, module: 1.2, sari: 5, launch_gradio_widget: 4 } as Record<string, number>)[t] ?? 0.5;
    const user = 'import evaluate\nfrom evaluate.utils import launch_gradio_widget\n\nmodule = evaluate.load("sari")\n';

    it('offers what the places continue it with when they agree', () => {
      const r = completeFromSources({ file: 'metrics/sari/app.py', prefix: user, line: 4, language: 'python' }, sources, { idf });
      assert.strictEqual(r?.text, 'launch_gradio_widget(module)', JSON.stringify(r));
      assert.ok(r.confidence >= 0.3 && r.confidence <= 1, JSON.stringify(r));
    });

    it('abstains, saying why, when one place resembles it and its continuation names what the file never mentions', () => {
      const state = { file: 'metrics/sari/app.py', prefix: 'import evaluate\n\nmodule = evaluate.load("sari")\n', line: 3, language: 'python' };
      const r = completeFromSources(state, sources.slice(0, 1), { idf, minEvidence: 0 });
      assert.ok(r && !r.text, JSON.stringify(r));
      assert.match(r.abstained ?? '', /resembling these .*confidence 0\.\d+ < 0\.3/, JSON.stringify(r));
    });
  });

  it('ranks first the continuation whose names the user\'s file already mentions, the other as an alternative', () => {
    const wanted = ['const total = computeTotal(items);', 'updateTotal(total, canvas);'];
    const other = ['const total = computeTotal(items);', 'shipOrder(orderQueue, total);'];
    const prefix = "import { updateTotal } from './render';\nconst canvas = getCanvas();\nconst total = computeTotal(items);\n";
    const sources = [{ file: 'b.ts', lines: other, from: 0, to: 2 }, { file: 'a.ts', lines: wanted, from: 0, to: 2 }];
    const r = completeFromSources({ file: 'c.ts', prefix, line: 3, language: 'typescript' }, sources, { idf: () => 3 });
    assert.strictEqual(r?.text, 'updateTotal(total, canvas);', JSON.stringify(r));
    assert.strictEqual(r.alternatives?.[0]?.text, 'shipOrder(orderQueue, total);');
    assert.ok(r.confidence > r.alternatives[0].confidence, JSON.stringify(r));
  });
  it('offers a continuation of weak evidence only when the places agree on it (calibrated confidence), and says so when not', () => {
    const lines = ['const total = items.length;', 'report(total);'];
    const state = { file: 'a.ts', prefix: 'const total = items.length;\n', line: 1 };
    const places = ['b', 'c', 'd', 'e'].map((f) => ({ file: `${f}.ts`, lines, from: 0, to: lines.length }));
    const agreed = completeFromSources(state, places, { idf: () => 0.5 });
    assert.strictEqual(agreed?.text, 'report(total);', JSON.stringify(agreed));
    const lone = completeFromSources(state, places.slice(0, 1), { idf: () => 0.5 });
    assert.ok(lone && !lone.text, JSON.stringify(lone));
    assert.match(lone.abstained ?? '', /evidence 3\.5 < 6, and confidence 0\.\d+ < 0\.4/, JSON.stringify(lone));
  });
  it('adapts a name the user renamed on a context line that differs from the copy\'s (an earlier test in the same file)', () => {
    const copy = ['def test_numpy():', "    rep_numpy = represent(op, basis=N, fmt='numpy')", '    for i in range(ndim - 1):', '        assert rep_numpy[i + 1, i] == sqrt(i + 1)'];
    const prefix = "def test_scipy():\n    rep_scipy = represent(op, basis=N, fmt='scipy.sparse', spm='lil')\n    for i in range(ndim - 1):\n";
    const r = completeFromSources({ file: 't.py', prefix, line: 3, language: 'python' }, [{ file: 'u.py', lines: copy, from: 0, to: copy.length }], { idf: () => 3 });
    assert.strictEqual(r?.text, '        assert rep_scipy[i + 1, i] == sqrt(i + 1)', JSON.stringify(r));
  });
  it('declines a well-evidenced continuation when the places that continue the lines disagree (calibrated confidence under MIN_CONFIDENCE)', () => {
    // Ten continuations, one of them at two places (the others tie, and ties are declined anyway).
    const places = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k'].map((f, i) => ({ file: `${f}.ts`, lines: ['const total = items.length;', `report${Math.max(0, i - 1)}(total);`], from: 0, to: 2 }));
    const state = { file: 'x.ts', prefix: 'const total = items.length;\n', line: 1 };
    const r = completeFromSources(state, places, { idf: () => 3 });
    assert.ok(r && !r.text, JSON.stringify(r));
    assert.match(r.abstained ?? '', new RegExp(`11 places .*confidence 0\\.\\d+ < ${MIN_CONFIDENCE}`), JSON.stringify(r));
    assert.ok(completeFromSources(state, places, { idf: () => 3, minConfidence: 0 })?.text, 'offered without the threshold');
  });
  it('offers the next continuation when the checks withdraw the best one and the next is likely enough on its own', () => {
    const lines = (call: string) => ['const total = items.length;', `${call}(total);`];
    const places = [...['a', 'b', 'c'].map((f) => ({ file: `${f}.ts`, lines: lines('report'), from: 0, to: 2 })), ...['d', 'e'].map((f) => ({ file: `${f}.ts`, lines: lines('log'), from: 0, to: 2 }))];
    const state = { file: 'x.ts', prefix: 'const total = items.length;\n', line: 1 };
    // `report` is unbound at this cursor (scopeCheck.ts's verdict, given here).
    const vet = (text: string) => (/\breport\(/.test(text) ? { text: '', cut: { line: 0, reason: 'unbound' as const, name: 'report' } } : { text });
    assert.strictEqual(completeFromSources(state, places, { idf: () => 3 })?.text, 'report(total);');
    const r = completeFromSources(state, places, { idf: () => 3, vet });
    assert.strictEqual(r?.text, 'log(total);', JSON.stringify(r));
    assert.ok(r.confidence >= MIN_CONFIDENCE, JSON.stringify(r));
    // …but not a next one the places hardly agree on.
    const lone = [...places.slice(0, 3), ...['f', 'g', 'h', 'i'].map((f, i) => ({ file: `${f}.ts`, lines: lines(`log${i}`), from: 0, to: 2 }))];
    const declined = completeFromSources(state, lone, { idf: () => 3, vet });
    assert.ok(declined && !declined.text, JSON.stringify(declined));
    assert.match(declined.abstained ?? '', /uses `report`, which nothing binds here/);
  });
  it('rates each of k continuations the places tie on at most 1/k likely: six well-evidenced ties are declined', () => {
    const places = ['a', 'b', 'c', 'd', 'e', 'f'].map((f, i) => ({ file: `${f}.ts`, lines: ['const total = items.length;', `report${i}(total);`], from: 0, to: 2 }));
    const state = { file: 'x.ts', prefix: 'const total = items.length;\n', line: 1 };
    let ranked: Group[] = [];
    const r = completeFromSources(state, places, { idf: () => 3, minConfidence: 0, explain: (groups) => (ranked = groups) });
    assert.strictEqual(ranked.length, 6);
    for (const g of ranked) assert.ok(g.confidence <= 1 / 6 + 1e-3, JSON.stringify(g.confidence));
    // Declined however low the threshold: nothing tells the six apart (suffixFit.ts `untie`).
    assert.ok(r && !r.text, JSON.stringify(r));
    assert.match(r.abstained ?? '', /6 continuations tie/);
  });
});
