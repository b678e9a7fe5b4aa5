// Engine.symbolAt: the name at a position decided by the syntax tree, known only when the index
// defines it or other files use it; definitions come with their declaration line and doc.
import * as assert from 'assert';
import type { Engine } from '../../engine/src/engine';
import { indexedWorkspace, positionOf, type IndexedWorkspace } from './workspace.helpers';

const FILES: Record<string, string> = {
  'pipelines/schedule.py': [
    'import inspect',
    '',
    '',
    'def retrieve_timesteps(scheduler, num_inference_steps=None, device=None):',
    '    """Calls the scheduler\'s `set_timesteps` and returns its timesteps.',
    '',
    '    Handles custom timesteps.',
    '    """',
    '    scheduler.set_timesteps(num_inference_steps, device=device)',
    '    return scheduler.timesteps, num_inference_steps',
    '',
  ].join('\n'),
  'pipelines/copy_a.py': [
    'import inspect',
    '',
    '',
    '# Copied from pipelines.schedule.retrieve_timesteps',
    'def retrieve_timesteps(scheduler, num_inference_steps=None, device=None):',
    '    """Calls the scheduler\'s `set_timesteps` and returns its timesteps.',
    '',
    '    Handles custom timesteps.',
    '    """',
    '    scheduler.set_timesteps(num_inference_steps, device=device)',
    '    return scheduler.timesteps, num_inference_steps',
    '',
    '',
    'class Pipeline:',
    '    async def run(self, scheduler):',
    '        # retrieve_timesteps is called for the schedule; 42 steps',
    '        steps, n = retrieve_timesteps(scheduler, 42)',
    '        label = "retrieve_timesteps in a string"',
    '        local_only_name = self.helper_value',
    '        return steps',
    '',
  ].join('\n'),
  'src/format.ts': [
    '/** Pads a label to `width` characters. */',
    'export function padLabel(label: string, width: number): string {',
    '  return label.padEnd(width);',
    '}',
    '',
  ].join('\n'),
  'src/main.ts': [
    "import { padLabel } from './format';",
    '',
    'export async function main(): Promise<string> {',
    '  // padLabel makes the columns line up',
    "  const text = `${padLabel('fence', 12)}`;",
    "  return text + 'padLabel';",
    '}',
    '',
  ].join('\n'),
};

describe('Engine.symbolAt', function () {
  this.timeout(60_000);
  let workspace: IndexedWorkspace;
  let engine: Engine;
  before(async () => {
    workspace = await indexedWorkspace(FILES, 'rr-sym');
    engine = workspace.engine;
  });
  after(() => workspace.dispose());

  const at = (rel: string, needle: string, offset = 0, nth = 0) => engine.symbolAt(rel, ...positionOf(FILES[rel], needle, offset, nth));

  it('is null on keywords, self, comments, strings and numbers', async () => {
    assert.strictEqual(await at('pipelines/copy_a.py', 'async', 1), null, 'async');
    assert.strictEqual(await at('pipelines/copy_a.py', 'self, scheduler', 1), null, 'self');
    assert.strictEqual(await at('pipelines/copy_a.py', '# retrieve_timesteps', 4), null, 'comment word');
    assert.strictEqual(await at('pipelines/copy_a.py', '"retrieve_timesteps in', 3), null, 'string');
    assert.strictEqual(await at('pipelines/copy_a.py', '42)', 0), null, 'number');
    assert.strictEqual(await at('src/main.ts', 'async', 2), null, 'ts keyword');
    assert.strictEqual(await at('src/main.ts', '// padLabel', 5), null, 'ts comment');
    assert.strictEqual(await at('src/main.ts', "'padLabel'", 3), null, 'ts string');
  });

  it('on a call, gives the callee it resolves to (this file\'s copy, which Python runs) with its declaration line and docstring, not the Copied-from note', async () => {
    const s = await at('pipelines/copy_a.py', 'retrieve_timesteps(scheduler, 42', 3);
    assert.ok(s, 'no symbol');
    assert.strictEqual(s.name, 'retrieve_timesteps');
    assert.strictEqual(s.role, 'call');
    assert.strictEqual(s.resolution, 'defines');
    assert.strictEqual(s.definitions.length, 1, JSON.stringify(s.definitions));
    const [d] = s.definitions;
    assert.strictEqual(d.file, 'pipelines/copy_a.py');
    assert.strictEqual(d.declLine, 4);
    assert.ok(d.declaration.startsWith('def retrieve_timesteps(scheduler'), d.declaration);
    assert.ok(d.doc?.startsWith("Calls the scheduler's"), String(d.doc));
    assert.ok(!/copied from/i.test(`${d.declaration}\n${d.doc}`), JSON.stringify(d));
    assert.strictEqual(d.copyOf, 'pipelines.schedule.retrieve_timesteps');
    assert.strictEqual(s.copies, 1, 'the original in pipelines/schedule.py, counted as a copy');
  });

  it('finds names inside template substitutions, and on the definition itself says so', async () => {
    const inTemplate = await at('src/main.ts', '${padLabel', 3);
    assert.strictEqual(inTemplate?.name, 'padLabel');
    assert.strictEqual(inTemplate.role, 'call');
    assert.ok(inTemplate.definitions[0].declaration.startsWith('export function padLabel('), inTemplate.definitions[0].declaration);
    assert.strictEqual(inTemplate.definitions[0].doc, 'Pads a label to `width` characters.');
    const decl = await at('src/format.ts', 'padLabel(label', 2);
    assert.strictEqual(decl?.role, 'definition');
    assert.deepStrictEqual(decl.usedInFiles, ['src/main.ts']);
  });

  it('is null on a name the index neither defines nor sees in other files', async () => {
    assert.strictEqual(await at('pipelines/copy_a.py', 'local_only_name', 2), null);
    assert.strictEqual(await at('pipelines/copy_a.py', 'helper_value', 2), null);
  });

  it('reads an unsaved buffer when given, and rejects bad positions with a clear error', async () => {
    const content = 'def other():\n    return padLabel_py()\n';
    assert.strictEqual(await engine.symbolAt('pipelines/new.py', 1, 12, content), null);
    const edited = `${FILES['src/main.ts']}padLabel('x', 3);\n`;
    const s = await engine.symbolAt('src/main.ts', 7, 2, edited);
    assert.strictEqual(s?.name, 'padLabel');
    await assert.rejects(engine.symbolAt('src/main.ts', -1, 0), /non-negative integers/);
    assert.strictEqual(await engine.symbolAt('src/main.ts', 999, 0), null);
    assert.strictEqual(await engine.symbolAt('README.md', 0, 0, '# padLabel'), null);
  });

  it('symbolRelated answers what symbolAt and then retrieve would, in one request', async () => {
    const pos = positionOf(FILES['pipelines/copy_a.py'], 'retrieve_timesteps(scheduler, 42', 3);
    const options = { k: 8, compact: false, excerpt: 'head' as const, maxLinesPerHit: 400 };
    const one = await engine.symbolRelated('pipelines/copy_a.py', ...pos, { context: 'timesteps = retrieve_timesteps(scheduler, 42)', options });
    const symbol = await engine.symbolAt('pipelines/copy_a.py', ...pos);
    const chunks = await engine.retrieve(`${symbol!.name}\ntimesteps = retrieve_timesteps(scheduler, 42)`, options);
    assert.ok(one && chunks.length > 0);
    // The same chunks, each with how it relates to the name (read from its syntax).
    const { stages, ...answer } = one;
    assert.deepStrictEqual({ ...answer, chunks: answer.chunks.map(({ relation: _, ...c }) => c) }, { symbol, chunks });
    assert.ok(stages && typeof stages.retrieve === 'number' && typeof stages.relations === 'number', 'where its time went, by stage');
    assert.deepStrictEqual(one.chunks.filter((c) => c.file === 'pipelines/schedule.py').map((c) => c.relation?.kind), ['defines']);
    assert.strictEqual(await engine.symbolRelated('pipelines/copy_a.py', ...positionOf(FILES['pipelines/copy_a.py'], 'async', 1), { options }), null, 'not a name');
    const aborted = AbortSignal.abort();
    await assert.rejects(engine.symbolRelated('pipelines/copy_a.py', ...pos, { options }, undefined, aborted), /abort/i);
  });
});
