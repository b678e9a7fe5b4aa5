// Find Related Code rows (extension/src/features/relatedRows.ts): look-alike rows are told apart
// by a line the earlier one lacks, or folded into it when none differs.
import * as assert from 'node:assert/strict';
import type { SymbolInfo } from '../../engine/src/lookup/symbols';
import type { RetrievedChunk } from '../../engine/src/types';
import { pickDefinition, reasonFor, relatedRows } from '../../extension/src/features/relatedRows';

const chunk = (file: string, startLine: number, text: string, name?: string): RetrievedChunk => ({ file, startLine, endLine: startLine + text.split('\n').length - 1, kind: 'function', ...(name ? { name } : {}), text, score: 1, signals: {} });

describe('Find Related rows', () => {
  it('tells apart tests that start alike by the first line the earlier one lacks', () => {
    const head = "const rawRequest = new Request('http://localhost?page=2')\nconst c = new Context(rawRequest, {";
    const rows = relatedRows([
      chunk('src/a.test.ts', 10, `${head}\n  path: '/a',\n})\nexpect(c.req.query('page')).toBe('2')\nexpect(c.req.query('tag')).toBe('A')\nexpect(c.req.query('q')).toBeUndefined()`),
      chunk('src/b.test.ts', 40, `${head}\n  path: '/a',\n})\nexpect(c.req.queries('tag')).toEqual(['A'])\nexpect(c.req.queries('page')).toEqual(['2'])\nexpect(c.req.queries('q')).toBeUndefined()`),
    ], null, 'src/x.ts', 10);
    assert.equal(rows.length, 2);
    assert.match(rows[0].preview!, /^const rawRequest/);
    assert.equal(rows[1].preview, "… expect(c.req.queries('tag')).toEqual(['A'])");
  });

  it('folds rows that show the same name, reason and line and differ in no line into one row with copies', () => {
    const symbol = { name: 'Env', definitions: [], usedInFiles: ['src/types.ts'] } as unknown as SymbolInfo;
    const overload = 'E6 extends Env = IntersectNonAnyTypes<[E, E2, E3, E4, E5]>,';
    const rows = relatedRows([
      chunk('src/helper/factory/index.ts', 100, `export function createHandlers<\n${overload}\nP extends string = any,`, 'createHandlers'),
      chunk('src/helper/factory/index.ts', 200, `export function createHandlers<\n${overload}\nP extends string = any,`, 'createHandlers'),
      chunk('src/types.ts', 600, `export function createHandlers<\n${overload}\nR extends Env = any,`, 'createHandlers'),
    ], symbol, 'src/x.ts', 10);
    assert.equal(rows.length, 2);
    assert.equal(rows[0].copies.length, 1);
    assert.equal(rows[0].copies[0].startLine, 200);
    assert.equal(rows[0].preview, overload);
    assert.equal(rows[1].preview, '… R extends Env = any,');
    assert.deepEqual(rows.map((r) => r.reason), ['uses it', 'uses it']);
  });

  it('keeps distinct rows as they are', () => {
    const rows = relatedRows([chunk('a.py', 0, 'def f():\n    return 1', 'f'), chunk('b.py', 0, 'def g():\n    return 2', 'g')], null, 'c.py', 10);
    assert.deepEqual(rows.map((r) => [r.chunk.file, r.copies.length, r.preview]), [['a.py', 0, 'def f(): ⏎ return 1'], ['b.py', 0, 'def g(): ⏎ return 2']]);
  });

  it('labels a row that declares the name as its definition, never "calls it"', () => {
    // diffusers: rows that are `def add_noise(` were labelled "calls it" (issue 29).
    const symbol = { name: 'add_noise', role: 'call', resolution: 'candidates', definitions: [], usedInFiles: [] } as unknown as SymbolInfo;
    const method = chunk('src/schedulers/ddpm.py', 40, 'def add_noise(self, original_samples, noise, timesteps):\n    return self.add_noise_impl(original_samples)', 'DDPMScheduler.add_noise');
    const inClass = { ...chunk('src/schedulers/pndm.py', 10, 'class PNDMScheduler:\n    def add_noise(self, x, noise, t):\n        return x + noise'), kind: 'class' as const };
    const tsMethod = chunk('src/noise.ts', 3, '  async add_noise(x: number): Promise<number> {\n    return x;\n  }');
    const caller = chunk('train.py', 980, 'noisy = noise_scheduler.add_noise(latents, noise, timesteps)', 'main');
    assert.deepEqual([method, inClass, tsMethod, caller].map((c) => reasonFor(c, symbol)), ['definition', 'definition', 'definition', 'calls it']);
  });

  it('shows "defines" only for a resolved definition, never for same-named candidates', () => {
    const def = { file: 'examples/train.py', startLine: 3, endLine: 9, declLine: 3, kind: 'function', declaration: 'def encode_prompt(text_encoders, tokenizers):' };
    const base = { name: 'encode_prompt', role: 'call', line: 961, startCharacter: 8, endCharacter: 21, definitions: [def], usedInFiles: [] };
    assert.equal(pickDefinition({ ...base, resolution: 'candidates' } as unknown as SymbolInfo, 'pipelines/sd.py'), undefined);
    assert.equal(pickDefinition({ ...base, resolution: 'external', definitions: [] } as unknown as SymbolInfo, 'pipelines/sd.py'), undefined);
    assert.equal(pickDefinition({ ...base, resolution: 'defines' } as unknown as SymbolInfo, 'pipelines/sd.py'), def);
    assert.equal(pickDefinition({ ...base, resolution: 'name' } as unknown as SymbolInfo, 'pipelines/sd.py'), def);
  });
});
