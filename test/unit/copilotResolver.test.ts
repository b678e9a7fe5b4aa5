// The Copilot context provider's answering logic (vscode-free): the context computed ahead and
// picked up within the request's deadline, nothing delivered after it, and the items themselves
// (rank order, importance, stable ids, copies collapsed, deny-listed files dropped, secrets
// redacted) from a real engine's retrieval over a real index.
import * as assert from 'node:assert';
import type { RetrievedChunk } from '../../engine/src/public';
import type { CancellationToken } from '../../extension/src/features/copilotApi';
import { applyProposedEdits, contextKey, offsetAt, requestPosition } from '../../extension/src/features/copilotRequest';
import { CopilotContextSource, DeliveredItems, snippetsFrom, usageSummary, type Compute, type ProvidedContext } from '../../extension/src/features/copilotResolver';
import { groupCopies } from '../../extension/src/features/copies';
import { indexedWorkspace, type IndexedWorkspace } from './workspace.helpers';

/** A cancellation token a test cancels (the shape VS Code's and Copilot's share). */
function tokenSource(): { token: CancellationToken; cancel(): void } {
  const listeners: Array<() => unknown> = [];
  let cancelled = false;
  return {
    token: {
      get isCancellationRequested() { return cancelled; },
      onCancellationRequested: (l) => {
        listeners.push(l);
        return { dispose: () => listeners.splice(listeners.indexOf(l), 1) };
      },
    },
    cancel: () => {
      cancelled = true;
      for (const l of [...listeners]) l();
    },
  };
}

/** A computation the test finishes by hand, the quick answer then the full one; it records whether it was aborted. */
function deferredCompute(): { compute: Compute; finish(c: ProvidedContext): void; finishQuick(c: ProvidedContext): void; aborted(): boolean; calls(): number } {
  let finish: (c: ProvidedContext) => void = () => undefined;
  let quick: (c: ProvidedContext) => void = () => undefined;
  let signal: AbortSignal | undefined;
  let calls = 0;
  return {
    compute: (s, onQuick) => {
      calls++;
      signal = s;
      quick = onQuick;
      return new Promise((resolve) => (finish = resolve));
    },
    finish: (c) => finish(c),
    finishQuick: (c) => quick(c),
    aborted: () => signal?.aborted === true,
    calls: () => calls,
  };
}

const ctxOf = (value: string): ProvidedContext => ({ items: [{ uri: 'file:///w/a.ts', value, id: `rr-${value}` }], chunks: [], ms: 1 });
const FAR = () => Date.now() + 60_000;

describe('CopilotContextSource', () => {
  it('answers at once from the context prefetched for exactly this document version and cursor', async () => {
    const source = new CopilotContextSource();
    const d = deferredCompute();
    source.prefetch(contextKey('file:///w/a.ts', 3, 120), 'a', d.compute);
    d.finish(ctxOf('prefetched'));
    await new Promise((r) => setImmediate(r));
    const other = deferredCompute();
    const got = await source.resolve(contextKey('file:///w/a.ts', 3, 120), 'a', other.compute, tokenSource().token, FAR());
    assert.strictEqual(got.answer, 'ready');
    assert.strictEqual(got.context?.items[0].value, 'prefetched');
    assert.strictEqual(other.calls(), 0, 'no second retrieval');
  });

  it('waits for a prefetch still running, and asks itself when there was none', async () => {
    const source = new CopilotContextSource();
    const d = deferredCompute();
    source.prefetch('k1', 'a', d.compute);
    const waiting = source.resolve('k1', 'a', deferredCompute().compute, tokenSource().token, FAR());
    d.finish(ctxOf('late prefetch'));
    assert.deepStrictEqual([(await waiting).answer, (await waiting).context?.items[0].value], ['waited', 'late prefetch']);
    const own = deferredCompute();
    const asking = source.resolve('k2', 'a', own.compute, tokenSource().token, FAR());
    own.finish(ctxOf('asked'));
    assert.deepStrictEqual([(await asking).answer, own.calls()], ['asked', 1]);
  });

  it('delivers nothing after the token is cancelled, and cancels the retrieval the request started', async () => {
    const source = new CopilotContextSource();
    const own = deferredCompute();
    const { token, cancel } = tokenSource();
    const pending = source.resolve('k', 'a', own.compute, token, FAR());
    cancel();
    own.finish(ctxOf('too late'));
    const got = await pending;
    assert.strictEqual(got.answer, 'cancelled');
    assert.strictEqual(got.context, undefined);
    assert.ok(own.aborted(), 'the retrieval was cancelled with the request');
    assert.strictEqual(source.ready('k', 'a'), undefined, 'and nothing was kept for resolveOnTimeout');
  });

  it('stops waiting at timeoutEnd even when the token is never cancelled', async () => {
    const source = new CopilotContextSource();
    const got = await source.resolve('k', 'a', deferredCompute().compute, tokenSource().token, Date.now() + 5);
    assert.deepStrictEqual(got, { answer: 'timeout' });
  });

  it('keeps a prefetch alive when the request that waited for it gives up (the next request or resolveOnTimeout gets it)', async () => {
    const source = new CopilotContextSource();
    const d = deferredCompute();
    source.prefetch('k', 'a', d.compute);
    const { token, cancel } = tokenSource();
    const pending = source.resolve('k', 'a', deferredCompute().compute, token, FAR());
    cancel();
    assert.strictEqual((await pending).answer, 'cancelled');
    assert.ok(!d.aborted());
    d.finish(ctxOf('kept'));
    await new Promise((r) => setImmediate(r));
    assert.deepStrictEqual(source.ready('k', 'a')?.of, 'full');
  });

  it('a newer cursor in the same document cancels the older retrieval; resolveOnTimeout falls back to the latest ready one', async () => {
    const source = new CopilotContextSource();
    const first = deferredCompute();
    source.prefetch('k1', 'a', first.compute);
    first.finish(ctxOf('one keystroke older'));
    await new Promise((r) => setImmediate(r));
    const second = deferredCompute();
    source.prefetch('k2', 'a', second.compute);
    const third = deferredCompute();
    source.prefetch('k3', 'a', third.compute);
    assert.ok(second.aborted(), 'superseded');
    assert.ok(!third.aborted());
    assert.deepStrictEqual(source.ready('k3', 'a'), { context: ctxOf('one keystroke older'), of: 'older' });
    assert.strictEqual(source.ready('k3', 'b'), undefined, 'never another document\'s');
  });
});

describe('CopilotContextSource: the quick pass', () => {
  const tick = () => new Promise((r) => setImmediate(r));

  it('a request the full pass cannot answer by its deadline gets the quick pass before Copilot\'s token is cancelled; the full pass goes on', async () => {
    const source = new CopilotContextSource();
    const d = deferredCompute();
    source.prefetch('k', 'a', d.compute);
    d.finishQuick(ctxOf('quick, without the model'));
    const timeoutEnd = Date.now() + 30;
    const { token, cancel } = tokenSource();
    const copilotTimer = setTimeout(cancel, timeoutEnd - Date.now()); // Copilot cancels at timeoutEnd
    const got = await source.resolve('k', 'a', d.compute, token, timeoutEnd);
    const cancelledFirst = token.isCancellationRequested;
    clearTimeout(copilotTimer);
    assert.deepStrictEqual([got.answer, got.context?.items[0].value, cancelledFirst], ['quick', 'quick, without the model', false]);
    assert.ok(!d.aborted(), 'the full pass is not cancelled');
    d.finish(ctxOf('full'));
    await tick();
    const next = await source.resolve('k', 'a', deferredCompute().compute, tokenSource().token, FAR());
    assert.deepStrictEqual([next.answer, next.context?.items[0].value], ['ready', 'full']);
  });

  it('the full pass wins when it arrives before the deadline, though the quick one was ready first', async () => {
    const source = new CopilotContextSource();
    const d = deferredCompute();
    source.prefetch('k', 'a', d.compute);
    d.finishQuick(ctxOf('quick'));
    await tick();
    const pending = source.resolve('k', 'a', d.compute, tokenSource().token, FAR());
    d.finish(ctxOf('full'));
    const got = await pending;
    assert.deepStrictEqual([got.answer, got.context?.items[0].value], ['waited', 'full']);
  });

  it('resolveOnTimeout gets the quick pass for this very cursor until the full one is ready; one request gives both, and a newer cursor aborts it', async () => {
    const source = new CopilotContextSource();
    const signals: AbortSignal[] = [];
    let quick: (c: ProvidedContext) => void = () => undefined;
    let full: (c: ProvidedContext) => void = () => undefined;
    const compute: Compute = (signal, onQuick) => {
      signals.push(signal);
      quick = onQuick;
      return new Promise((resolve) => (full = resolve));
    };
    source.prefetch('k1', 'a', compute);
    assert.strictEqual(signals.length, 1, 'one computation per cursor');
    assert.strictEqual(source.ready('k1', 'a'), undefined, 'nothing ready yet');
    quick(ctxOf('quick'));
    assert.deepStrictEqual(source.ready('k1', 'a'), { context: ctxOf('quick'), of: 'quick' });
    full(ctxOf('full'));
    await tick();
    assert.deepStrictEqual(source.ready('k1', 'a'), { context: ctxOf('full'), of: 'full' });
    source.prefetch('k2', 'a', compute);
    const quickAtK2 = quick;
    quickAtK2(ctxOf('quick at k2'));
    source.prefetch('k3', 'a', compute);
    assert.ok(signals[1].aborted, 'the superseded cursor\'s computation is cancelled');
    quickAtK2(ctxOf('quick after k2 was cancelled'));
    assert.deepStrictEqual(source.ready('k3', 'a'), { context: ctxOf('full'), of: 'older' }, 'an older cursor\'s quick pass is never given');
    assert.strictEqual(source.ready('k2', 'a')?.of, 'older', 'a cancelled computation\'s quick answer is not kept');
  });
});

describe('Copilot request positions', () => {
  it('reads position, falls back to the deprecated offset, and applies proposed edits', () => {
    const text = 'def f(x):\r\n    return x\nprint(f(1))';
    assert.strictEqual(offsetAt(text, { line: 1, character: 4 }), 15);
    assert.strictEqual(offsetAt(text, { line: 0, character: 99 }), 9, 'clamped to the line');
    const positionAt = (o: number) => ({ line: o > 10 ? 1 : 0, character: o > 10 ? o - 11 : o });
    assert.deepStrictEqual(requestPosition({ uri: 'u', languageId: 'python', version: 1, offset: 15 } as never, positionAt), { line: 1, character: 4 });
    assert.deepStrictEqual(requestPosition({ uri: 'u', languageId: 'python', version: 1, offset: 15, position: { line: 2, character: 1 } }, positionAt), { line: 2, character: 1 });
    const edited = applyProposedEdits(text, [{ range: { start: { line: 1, character: 11 }, end: { line: 1, character: 12 } }, newText: 'x * 2', positionAfterEdit: { line: 1, character: 16 } }]);
    assert.deepStrictEqual(edited, { text: 'def f(x):\r\n    return x * 2\nprint(f(1))', offset: 27 });
    assert.notStrictEqual(contextKey('u', 1, 27, [{ range: { start: { line: 1, character: 11 }, end: { line: 1, character: 12 } }, newText: 'x * 2', positionAfterEdit: { line: 1, character: 16 } }]), contextKey('u', 1, 27));
  });
});

describe('snippetsFrom over a real index', function () {
  this.timeout(60_000);
  const token = ['ghp_', 'Pl4ntedCopilotToken0123456789abcdefghij'].join('');
  const files = {
    'src/geometry.ts': 'export function convexHull(points: Point[]): Point[] {\n  const sorted = sortPoints(points);\n  return buildHull(sorted);\n}\n',
    'lib/geometryCopy.ts': 'export function convexHull(points: Point[]): Point[] {\n  const sorted = sortPoints(points);\n  return buildHull(sorted);\n}\n',
    'src/client.ts': `export function hullClient(points: Point[]) {\n  const auth = "${token}";\n  return convexHull(points);\n}\n`,
    'src/.env.ts': 'export function convexHullSecret(points: Point[]) { return convexHull(points); }\n',
    'src/main.ts': 'import { convexHull } from "./geometry";\n\nexport function render(points: Point[]) {\n  const hull = convexHull(points);\n',
  };
  let ws: IndexedWorkspace;
  before(async () => (ws = await indexedWorkspace(files, 'reporecall-copilot')));
  after(() => ws?.dispose());

  it('gives the engine\'s packed excerpts in rank order, copies collapsed, secrets redacted, deny-listed files left out', async () => {
    const state = { file: 'src/main.ts', language: 'typescript', prefix: files['src/main.ts'], line: 3 };
    const chunks: RetrievedChunk[] = await ws.engine.retrieve(state, { budgetTokens: 1024 });
    assert.ok(chunks.length >= 2, 'the engine found the geometry code');
    const uriOf = (f: string) => `file:///w/${f}`;
    const { items, chunks: shown } = snippetsFrom(chunks, { file: state.file, prefix: state.prefix, uriOf, secretPatterns: ['src/.env.ts'] });
    // Order: the engine's, less the dropped and collapsed ones.
    const expected = chunks.filter((c) => c.file !== 'src/.env.ts' && !(c.file === state.file && state.prefix.includes(c.text)));
    assert.deepStrictEqual(shown, groupCopies(expected, (c) => c.text).map((g) => g.first));
    assert.ok(expected.some((c) => c.file === 'lib/geometryCopy.ts'), 'the copy was retrieved');
    assert.ok(items.some((i) => i.additionalUris?.includes(uriOf('lib/geometryCopy.ts'))) && !items.some((i) => i.uri === uriOf('lib/geometryCopy.ts')),
      `the copy is an additional URI of its original's item: ${JSON.stringify(items.map((i) => [i.uri, i.additionalUris]))}`);
    assert.ok(items.every((i) => !i.uri.includes('.env')), 'no deny-listed file');
    const client = items.find((i) => i.uri === uriOf('src/client.ts'));
    assert.ok(client, 'the client chunk is given');
    assert.ok(!client.value.includes(token) && !items.some((i) => i.value.includes(token)), 'the planted token never reaches Copilot');
    // Importance falls with the rank; ids are stable and of the characters Copilot accepts.
    assert.strictEqual(items[0].importance, 100);
    for (let i = 1; i < items.length; i++) assert.ok(items[i].importance! < items[i - 1].importance! && items[i].importance! >= 1);
    assert.ok(items.every((i) => /^[A-Za-z0-9-]+$/.test(i.id!)));
    assert.deepStrictEqual(snippetsFrom(chunks, { file: state.file, prefix: state.prefix, uriOf, secretPatterns: ['src/.env.ts'] }).items.map((i) => i.id), items.map((i) => i.id));
  });

  it('says which delivered chunk each of Copilot\'s usage statistics is about', () => {
    const delivered = new DeliveredItems();
    const chunk = { file: 'src/geometry.ts', startLine: 0, endLine: 3, kind: 'function', text: 'x', score: 1, signals: {} } as RetrievedChunk;
    delivered.note({ items: [{ uri: 'file:///w/src/geometry.ts', value: 'x', id: 'rr-a' }], chunks: [chunk], ms: 1 });
    const u = delivered.describe({ usage: 'partial', resolution: 'full', usageDetails: [{ id: 'rr-a', type: 'CodeSnippet', usage: 'full', expectedTokens: 12, actualTokens: 12 }, { id: 'rr-gone', type: 'CodeSnippet', usage: 'none' }] });
    assert.deepStrictEqual(u.items[0], { id: 'rr-a', usage: 'full', file: 'src/geometry.ts', startLine: 0, endLine: 3, expectedTokens: 12, actualTokens: 12 });
    assert.deepStrictEqual(u.items[1], { id: 'rr-gone', usage: 'none' });
    assert.strictEqual(usageSummary(u), 'usage partial, resolution full: 1 full, 0 partial, 1 none');
  });
});
