// The compact tables behind the engine's bookkeeping (engine/src/index/tables.ts) against plain
// reference models (the Map/Set/array structures they replaced), under random adds and removals,
// and through a write/read round trip.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as v8 from 'v8';
import { Engine } from '../../engine/src/engine';
import { DefinitionTable, type DefinitionRef } from '../../engine/src/enrich/definitionTable';
import type { DocInfo } from '../../engine/src/retrieve/hybrid';
import { BinaryReader, BinaryWriter } from '../../engine/src/store/binary';
import { StringPool } from '../../engine/src/store/stringPool';
import { MAX_DIRECT_ID } from '../../engine/src/store/rowById';
import { decodeTables, emptyTables, encodeTables } from '../../engine/src/index/tables';
import { committedFiles } from '../../engine/src/index/indexStore';
import type { ChunkKind } from '../../engine/src/types';
import { prng } from '../bench/scale/generate';
import { tempDir } from './tempDir';

// V8's own test of a small integer (Smi), to check that ids are not boxed doubles.
v8.setFlagsFromString('--allow-natives-syntax');
const isSmi = new Function('v', 'return %IsSmi(v)') as (v: number) => boolean;

const KINDS: ChunkKind[] = ['function', 'method', 'class', 'class-header', 'type', 'module', 'window'];

/** The structures HybridIndex held before the chunk table: docs by id, definers by name, docs per file by line. */
class ReferenceDocs {
  docs = new Map<number, DocInfo>();
  definers = new Map<string, Set<number>>();
  byFile = new Map<string, DocInfo[]>();
  add(info: DocInfo): void {
    this.docs.set(info.id, info);
    for (const n of info.defines) {
      let s = this.definers.get(n);
      if (!s) this.definers.set(n, (s = new Set()));
      s.add(info.id);
    }
    const list = this.byFile.get(info.file) ?? [];
    let i = list.length;
    while (i > 0 && list[i - 1].startLine > info.startLine) i--;
    list.splice(i, 0, info);
    this.byFile.set(info.file, list);
  }
  remove(id: number): void {
    const info = this.docs.get(id)!;
    this.docs.delete(id);
    for (const n of info.defines) {
      const s = this.definers.get(n)!;
      s.delete(id);
      if (!s.size) this.definers.delete(n);
    }
    const rest = this.byFile.get(info.file)!.filter((d) => d.id !== id);
    if (rest.length) this.byFile.set(info.file, rest);
    else this.byFile.delete(info.file);
  }
  definersOf(name: string, max: number): number[] {
    const s = this.definers.get(name);
    return s && s.size <= max ? [...s] : [];
  }
  successorOf(id: number): number | undefined {
    const info = this.docs.get(id)!;
    const list = this.byFile.get(info.file)!;
    return list[list.indexOf(info) + 1]?.id;
  }
}

describe('index tables', () => {
  it('string pool: interns once, finds, decodes UTF-8, survives a round trip', () => {
    const pool = new StringPool();
    const words = Array.from({ length: 5000 }, (_, i) => `name_${i % 3000}_${'é✓'.repeat(i % 3)}`);
    const ids = words.map((w) => pool.intern(w));
    assert.strictEqual(pool.size, new Set(words).size);
    words.forEach((w, i) => assert.strictEqual(pool.get(ids[i]), w));
    assert.strictEqual(pool.intern(words[10]), ids[10]);
    assert.strictEqual(pool.find('absent'), -1);
    assert.strictEqual(pool.find(''), -1);
    const empty = pool.intern('');
    assert.strictEqual(pool.get(empty), '');
    const w = new BinaryWriter();
    pool.write(w);
    const back = StringPool.read(new BinaryReader(w.finish()));
    words.forEach((word, i) => assert.strictEqual(back.find(word), ids[i]));
    assert.strictEqual(back.intern('new one'), pool.size);
  });

  it('chunk table answers as the maps it replaced, through random adds and removals and a round trip', () => {
    const r = prng(7);
    const t = emptyTables();
    const ref = new ReferenceDocs();
    const names = Array.from({ length: 40 }, (_, i) => `fn${i}`);
    const live: number[] = [];
    const removed = new Set<number>();
    let nextId = 0;
    for (let step = 0; step < 6000; step++) {
      if (live.length && r() < 0.4) {
        const id = live.splice(Math.floor(r() * live.length), 1)[0];
        t.chunks.remove(id);
        ref.remove(id);
        removed.add(id);
        continue;
      }
      // Mostly increasing ids (the engine's), sometimes a smaller one that was freed (the benchmark's
      // re-adds), and a few past what the table reads by id (MAX_DIRECT_ID: searched in the id column).
      const id = r() < 0.03 ? MAX_DIRECT_ID + Math.floor(r() * 500) : r() < 0.05 && nextId > 10 ? Math.floor(r() * nextId) : nextId++;
      if (ref.docs.has(id)) continue;
      const name = r() < 0.8 ? (r() < 0.5 ? `Cls.${names[Math.floor(r() * names.length)]}` : names[Math.floor(r() * names.length)]) : undefined;
      const defines = r() < 0.7 && name ? [name.slice(name.lastIndexOf('.') + 1)] : names.filter(() => r() < 0.05);
      const startLine = Math.floor(r() * 50);
      const info: DocInfo = { id, file: `src/f${Math.floor(r() * 30)}.ts`, startLine, endLine: startLine + Math.floor(r() * 10), kind: KINDS[Math.floor(r() * KINDS.length)], defines };
      if (name !== undefined) info.name = name;
      t.chunks.add(info);
      ref.add(info);
      removed.delete(id);
      live.push(id);
    }
    assert.ok([...ref.docs.keys()].some((id) => id >= MAX_DIRECT_ID));
    const check = (chunks: typeof t.chunks, ref: ReferenceDocs) => {
      assert.strictEqual(chunks.size, ref.docs.size);
      for (const [id, info] of ref.docs) {
        assert.deepStrictEqual(chunks.get(id), { ...info, defines: [...new Set(info.defines)] });
        assert.strictEqual(chunks.successorOf(id)?.id, ref.successorOf(id));
      }
      for (const n of names) for (const max of [1, 4, 100]) assert.deepStrictEqual(chunks.definersOf(n, max), ref.definersOf(n, max), `${n} ≤${max}`);
      for (const [file, list] of ref.byFile) assert.deepStrictEqual(chunks.idsOfFile(file), list.map((d) => d.id));
      assert.strictEqual(chunks.get(nextId + 5), undefined);
      for (const id of removed) assert.ok(!chunks.has(id) && chunks.fileOf(id) === undefined, `removed ${id}`);
      // The query filter: present, and not within lines from..to of one file.
      for (const [id, info] of ref.docs) {
        const from = Math.floor(r() * 50), to = from + Math.floor(r() * 20);
        const file = r() < 0.5 ? info.file : `src/f${Math.floor(r() * 30)}.ts`;
        const inside = file === info.file && info.endLine >= from && info.startLine <= to;
        assert.strictEqual(chunks.existsOutside(id, chunks.paths.find(file), from, to), !inside, `${id} ${file} ${from}-${to}`);
      }
      for (const id of removed) assert.strictEqual(chunks.existsOutside(id, -1, 0, 0), false);
    };
    check(t.chunks, ref);
    t.nextChunkId = nextId;
    const back = decodeTables(encodeTables(t));
    // A load adds the chunks in id order (as the old loader did): ties in line order and definers follow ids.
    const reloaded = new ReferenceDocs();
    for (const id of [...ref.docs.keys()].sort((a, b) => a - b)) reloaded.add(ref.docs.get(id)!);
    check(back.chunks, reloaded);
    assert.strictEqual(back.nextChunkId, nextId);
  });

  it('definition table looks names up in the order files were set, through removals and a round trip', () => {
    const r = prng(11);
    const t = emptyTables();
    // The table it replaced: per name, refs in the order their files were set.
    const byName = new Map<string, DefinitionRef[]>();
    const byFile = new Map<string, DefinitionRef[]>();
    const refRemove = (file: string) => {
      for (const d of byFile.get(file) ?? []) {
        const list = byName.get(d.name);
        if (!list) continue; // a name the file defines twice: gone with its first definition
        const rest = list.filter((x) => x.file !== file);
        if (rest.length) byName.set(d.name, rest);
        else byName.delete(d.name);
      }
      byFile.delete(file);
    };
    for (let step = 0; step < 3000; step++) {
      const file = `pkg/m${Math.floor(r() * 60)}.py`;
      if (r() < 0.3) {
        t.defs.removeFile(file);
        refRemove(file);
        continue;
      }
      const defs: DefinitionRef[] = Array.from({ length: Math.floor(r() * 5) }, (_, i) => ({ name: `n${Math.floor(r() * 25)}`, file, signature: `def n(x${i}, y=${step}):`, chunkId: step * 10 + i }));
      t.defs.setFile(file, defs);
      refRemove(file);
      byFile.set(file, defs);
      for (const d of defs) byName.set(d.name, [...(byName.get(d.name) ?? []), d]);
    }
    const check = (defs: DefinitionTable) => {
      for (let i = 0; i < 25; i++) assert.deepStrictEqual(defs.lookup(`n${i}`), byName.get(`n${i}`) ?? []);
      for (const [file, list] of byFile) assert.deepStrictEqual(defs.ofFile(file), list);
    };
    check(t.defs);
    check(decodeTables(encodeTables(t)).defs);
  });

  it('a malformed tables.bin is refused with a reason', () => {
    const t = emptyTables();
    t.files.set('a.ts', { hash: 'cd'.repeat(20), size: 10, mtimeMs: 5, language: 'typescript' });
    t.chunks.add({ id: 0, file: 'a.ts', startLine: 0, endLine: 3, kind: 'function', name: 'f', defines: ['f'] });
    const buf = encodeTables(t);
    assert.deepStrictEqual(decodeTables(buf).files.get('a.ts'), { hash: 'cd'.repeat(20), size: 10, mtimeMs: 5, language: 'typescript' });
    assert.throws(() => decodeTables(buf.subarray(0, buf.length - 9)), /truncated|malformed|expected/);
    assert.throws(() => decodeTables(Buffer.from('not an index table at all, just text')), /not an index table|truncated/);
  });

  it('the engine detects a damaged tables.bin, says so and rebuilds', async () => {
    const work = tempDir('rr-tables-');
    try {
      const root = path.join(work, 'repo');
      fs.mkdirSync(path.join(root, 'src'), { recursive: true });
      fs.writeFileSync(path.join(root, 'src/a.ts'), 'export function alpha(x: number): number {\n  return x + 1;\n}\n');
      fs.writeFileSync(path.join(root, 'src/b.ts'), 'export function beta(y: number): number {\n  return y * 2;\n}\n');
      const indexDir = path.join(work, 'index');
      const first = await Engine.open({ root, indexDir, dense: false });
      const built = await first.indexAll();
      await first.close();
      const target = path.join(indexDir, committedFiles(indexDir).bases.tables);
      const buf = fs.readFileSync(target);
      buf[buf.length >> 1] ^= 0xff;
      fs.writeFileSync(target, buf);
      const logs: string[] = [];
      const second = await Engine.open({ root, indexDir, dense: false, log: (l) => logs.push(l) });
      assert.ok(logs.some((l) => /tables-\d+\.bin does not match its checksum.*rebuilding/.test(l)), logs.join('\n'));
      const rebuilt = await second.indexAll();
      assert.strictEqual(rebuilt.chunks, built.chunks);
      const hits = await second.retrieve('beta doubles y', { k: 2 });
      assert.strictEqual(hits[0]?.file, 'src/b.ts');
      await second.close();
    } finally {
      fs.rmSync(work, { recursive: true, force: true });
    }
  });

  it('chunk ids counted from a loaded index are small integers, not boxed doubles', async () => {
    // A boxed id deoptimized the search at the first query after the first update of a reopened
    // index (+30 ms at 20k files; test/bench/scale/firstQuery.ts, PARAMS.md `save_one_edit`).
    const t = emptyTables();
    t.nextChunkId = 91780;
    assert.ok(isSmi(decodeTables(encodeTables(t)).nextChunkId));
    const work = tempDir('rr-tables-');
    try {
      const root = path.join(work, 'repo');
      fs.mkdirSync(path.join(root, 'src'), { recursive: true });
      fs.writeFileSync(path.join(root, 'src/a.ts'), 'export function alpha(x: number): number {\n  return x + 1;\n}\n');
      const indexDir = path.join(work, 'index');
      const first = await Engine.open({ root, indexDir, dense: false });
      await first.indexAll();
      await first.close();
      const second = await Engine.open({ root, indexDir, dense: false });
      const tables = (second as unknown as { ws: { tables: { nextChunkId: number } } }).ws.tables;
      assert.ok(tables.nextChunkId > 0 && isSmi(tables.nextChunkId), `nextChunkId ${tables.nextChunkId}`);
      await second.updateFile('src/a.ts', 'export function alpha(x: number): number {\n  return x + 2;\n}\n');
      assert.ok(isSmi(tables.nextChunkId), `after an update: ${tables.nextChunkId}`);
      await second.close();
    } finally {
      fs.rmSync(work, { recursive: true, force: true });
    }
  });
});
