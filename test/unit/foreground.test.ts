// Requests a user waits for go before background work on the engine's thread (issue 29, hover p95):
// a live update waits between its slices while a hover or completion is in flight, instead of taking
// turns with it, and goes on once none is. Counted in event-loop turns and indexed batches on a real
// engine and index, not timed.
import * as assert from 'assert';
import type { Engine } from '../../engine/src/engine';
import { Breather, nextTurn } from '../../engine/src/util/breathe';
import * as summary from '../../engine/src/resolve/summary';
import { Foreground } from '../../engine/src/util/foreground';
import { indexedWorkspace, positionOf, type IndexedWorkspace } from './workspace.helpers';

function deferred(): { promise: Promise<void>; resolve(): void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

const turns = async (n: number): Promise<void> => {
  for (let i = 0; i < n; i++) await nextTurn();
};

const MANY = Array.from({ length: 120 }, (_, i) => `export function stepFg${i}(x: number): number {\n  return x + ${i};\n}\n`).join('\n');
const FILES: Record<string, string> = {
  'src/steps.ts': MANY,
  'src/use.ts': "import { stepFg3 } from './steps';\n\nexport function run(): number {\n  return stepFg3(1);\n}\n",
  'src/more.ts': 'export function moreFg(x: number): number {\n  return x * 2;\n}\n',
  'src/useMore.ts': "import { moreFg } from './more';\n\nexport const twice = moreFg(2);\n",
};

describe('foreground requests before background work', function () {
  this.timeout(60_000);

  it('a breather waits while a foreground request is in flight, then goes on', async () => {
    const fg = new Foreground();
    const held = deferred();
    const request = fg.run(() => held.promise);
    let breathed = false;
    const slice = new Breather(4, undefined, fg).breathe().then(() => (breathed = true));
    await turns(5);
    assert.strictEqual(breathed, false, 'the background slice went on beside the request');
    held.resolve();
    await request;
    await slice;
    assert.strictEqual(breathed, true);
    assert.strictEqual(fg.busy, false);
  });

  it('never waits past its limit (a stream of requests does not starve an update)', async () => {
    const fg = new Foreground();
    const request = fg.run(() => new Promise<void>(() => undefined));
    void request;
    await fg.idle(1); // resolves by its limit though the request never ends
    assert.strictEqual(fg.busy, true);
  });

  describe('in the engine', () => {
    let workspace: IndexedWorkspace;
    let engine: Engine;
    before(async () => {
      workspace = await indexedWorkspace(FILES, 'rr-foreground');
      engine = workspace.engine;
    });
    after(() => workspace.dispose());

    it('a buffer\'s live update indexes nothing while a hover is in flight; the hover answers meanwhile', async () => {
      const held = deferred();
      let batches = 0;
      let hover: Promise<unknown> | undefined;
      let waiting: Promise<void> | undefined;
      const [line, character] = positionOf(FILES['src/use.ts'], 'stepFg3(1)', 1);
      engine.tuning = {
        ...engine.tuning,
        hooks: {
          ...engine.tuning.hooks,
          onIndexed: {
            chunks: async () => {
              batches++;
              if (waiting) return;
              // The first batch is in: a request the user waits for starts and stays open until released.
              waiting = engine.foreground.run(() => held.promise);
              hover = engine.symbolRelated('src/use.ts', line, character, { context: 'return stepFg3(1);', options: { k: 4 } });
            },
            file: () => undefined,
          },
        },
      };
      try {
        const edited = MANY.replace('return x + 7;', 'return x + 8;');
        const update = engine.updateFile('src/steps.ts', edited);
        while (!waiting) await nextTurn();
        const atStart = batches;
        const found = (await hover) as { symbol: { name: string; definitions: Array<{ file: string }> } } | null;
        assert.deepStrictEqual([found?.symbol.name, found?.symbol.definitions[0]?.file], ['stepFg3', 'src/steps.ts'], 'the hover answered while the update waited');
        await turns(10);
        assert.strictEqual(batches, atStart, 'the update indexed batches while a foreground request was in flight');
        held.resolve();
        await waiting;
        await update;
        assert.ok(batches > atStart, 'the update went on once no request was in flight');
      } finally {
        held.resolve();
        engine.tuning = { ...engine.tuning, hooks: { ...engine.tuning.hooks, onIndexed: undefined } };
      }
    });

    it('a file\'s warm-up (prepareFile) summarises nothing while a request is in flight, and all of it after', async () => {
      const held = deferred();
      const summarised: string[] = [];
      const original = summary.summarize;
      (summary as { summarize: typeof original }).summarize = (file, ...rest) => (summarised.push(file), original(file, ...rest));
      try {
        const waiting = engine.foreground.run(() => held.promise);
        const prepared = engine.prepareFile('src/useMore.ts');
        await turns(10);
        assert.deepStrictEqual(summarised.filter((f) => f.startsWith('src/')), [], 'background work ran beside a request in flight');
        held.resolve();
        await waiting;
        await prepared;
        assert.deepStrictEqual(summarised.filter((f) => f.startsWith('src/')).sort(), ['src/more.ts', 'src/useMore.ts'], 'the file and the module it imports, once each');
      } finally {
        held.resolve();
        (summary as { summarize: typeof original }).summarize = original;
      }
    });
  });
});
