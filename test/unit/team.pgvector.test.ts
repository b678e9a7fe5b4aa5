// The team index's vector path against real pgvector: PGlite (PostgreSQL in wasm) with its vector
// extension, served over the wire protocol, driven by the same pg client code as a real server.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Client } from 'pg';
import { Engine } from '../../engine/src/engine';
import type { EditorState } from '../../engine/src/types';
import { TeamIndexReader } from '../../engine/src/team/reader';
import { teamRetrieve } from '../../engine/src/team/retrieve';
import { SCHEMA } from '../../engine/src/team/schema';
import { writeTeamIndex } from '../../engine/src/team/writer';
import type { FusionWeights } from '../../engine/src/retrieve/hybrid';
import { copyEngineSources, startPglite, type PgliteServer } from './team.helpers';
import { queriesFor } from './team.postgres.test';

/** The engine's query embedding (private: the same function its retrieve uses). */
function embedderOf(engine: Engine): (t: string) => Promise<Float32Array | undefined> {
  const e = engine as unknown as { embedQuery(t: string): Promise<Float32Array | undefined> };
  return (t) => e.embedQuery(t);
}

const DENSE_ONLY: Partial<FusionWeights> = { bm25: 0, recent: 0, symbol: 0, normalized: 0, bm25Score: 0, recentScore: 0 };

async function ranks(hits: { file: string; startLine: number; endLine: number; signals: Record<string, number> }[]): Promise<string[]> {
  return hits.map((h) => `${h.file}:${h.startLine}-${h.endLine} ${Object.keys(h.signals).sort().map((k) => `${k}#${h.signals[k]}`).join(',')}`);
}

describe('team index vectors on pgvector (PGlite)', function () {
  this.timeout(300_000);
  let server: PgliteServer;
  let root: string;
  let localIndex: string;
  let engine: Engine;

  before(async () => {
    server = await startPglite();
    root = copyEngineSources('lexical', 'retrieve');
    localIndex = fs.mkdtempSync(path.join(os.tmpdir(), 'rr-team-vec-local-'));
    engine = await Engine.open({ root, indexDir: localIndex });
  });

  after(async () => {
    await engine?.close();
    await server?.stop();
    for (const d of [root, localIndex]) if (d) fs.rmSync(d, { recursive: true, force: true });
  });

  async function sql(text: string) {
    const c = new Client({ connectionString: server.url });
    await c.connect();
    try {
      return (await c.query(text)).rows;
    } finally {
      await c.end();
    }
  }

  it('stores every chunk\'s vector in a vector(dim) column with an HNSW cosine index', async () => {
    const w = await writeTeamIndex({ root, url: server.url, repo: 'engine' });
    assert.ok(w.committed);
    assert.strictEqual(w.vectors, true, w.vectorNote);
    const repo = (await sql(`SELECT model_id, dim FROM ${SCHEMA}.repo WHERE name = 'engine'`))[0];
    assert.ok(repo.model_id && repo.dim > 0);
    const [{ t }] = await sql(`SELECT format_type(atttypid, atttypmod) AS t FROM pg_attribute WHERE attrelid = '${SCHEMA}.vec_${repo.dim}'::regclass AND attname = 'embedding'`);
    assert.strictEqual(t, `vector(${repo.dim})`);
    const idx = (await sql(`SELECT indexdef FROM pg_indexes WHERE schemaname = '${SCHEMA}' AND tablename = 'vec_${repo.dim}'`)).map((r) => r.indexdef).join('\n');
    assert.match(idx, /USING hnsw \(embedding vector_cosine_ops\)/);
    const [{ c, v }] = await sql(`SELECT (SELECT count(*) FROM ${SCHEMA}.chunk) c, (SELECT count(*) FROM ${SCHEMA}.vec_${repo.dim}) v`);
    assert.strictEqual(Number(v), Number(c));
    assert.ok(Number(c) > 50);
  });

  it('the dense list and the fused ranking match the local engine\'s', async () => {
    await engine.indexAll();
    const reader = await TeamIndexReader.open(server.url, 'engine');
    try {
      const embedQuery = embedderOf(engine);
      const queries: (EditorState | string)[] = queriesFor(root);
      assert.ok(queries.length >= 6);
      for (const q of queries) {
        const label = typeof q === 'string' ? q : `${q.file}:${q.line}`;
        const denseLocal = await engine.retrieve(q, { k: 10 }, DENSE_ONLY);
        const denseTeam = await teamRetrieve(reader, q, { k: 10, weights: DENSE_ONLY, embedQuery });
        assert.deepStrictEqual(await ranks(denseTeam), await ranks(denseLocal), `dense ${label}`);
        const local = await engine.retrieve(q, { k: 10 });
        const team = await teamRetrieve(reader, q, { k: 10, embedQuery });
        assert.deepStrictEqual(await ranks(team), await ranks(local), label);
        assert.deepStrictEqual(team.map((h) => h.score.toPrecision(12)), local.map((h) => h.score.toPrecision(12)), label);
      }
    } finally {
      await reader.close();
    }
  });

  it('an incremental write replaces the vectors of changed files only, and the new code is found', async () => {
    const dim = Number((await sql(`SELECT dim FROM ${SCHEMA}.repo WHERE name = 'engine'`))[0].dim);
    const keep = (await sql(`SELECT v.chunk_id FROM ${SCHEMA}.vec_${dim} v JOIN ${SCHEMA}.chunk c ON c.id = v.chunk_id WHERE c.path = 'lexical/bm25.ts' ORDER BY 1`)).map((r) => r.chunk_id);
    const oldOfChanged = (await sql(`SELECT v.chunk_id FROM ${SCHEMA}.vec_${dim} v JOIN ${SCHEMA}.chunk c ON c.id = v.chunk_id WHERE c.path = 'retrieve/excerpt.ts'`)).map((r) => r.chunk_id);
    fs.appendFileSync(path.join(root, 'retrieve/excerpt.ts'), '\n/** Reverses the characters of a string, as a palindrome check needs. */\nexport function reverseCharacters(text: string): string {\n  return [...text].reverse().join(\'\');\n}\n');
    const w = await writeTeamIndex({ root, url: server.url, repo: 'engine' });
    assert.ok(w.committed);
    assert.strictEqual(w.changedFiles, 1);
    const after = (await sql(`SELECT v.chunk_id FROM ${SCHEMA}.vec_${dim} v JOIN ${SCHEMA}.chunk c ON c.id = v.chunk_id WHERE c.path = 'lexical/bm25.ts' ORDER BY 1`)).map((r) => r.chunk_id);
    assert.deepStrictEqual(after, keep);
    const gone = await sql(`SELECT count(*) n FROM ${SCHEMA}.vec_${dim} WHERE chunk_id IN (${oldOfChanged.join(',')})`);
    assert.strictEqual(Number(gone[0].n), 0);
    await engine.indexAll();
    const reader = await TeamIndexReader.open(server.url, 'engine');
    try {
      const embedQuery = embedderOf(engine);
      const q = 'reverse the characters of a string';
      const team = await teamRetrieve(reader, q, { k: 5, weights: DENSE_ONLY, embedQuery });
      assert.strictEqual(team[0].name, 'reverseCharacters');
      assert.deepStrictEqual(await ranks(team), await ranks(await engine.retrieve(q, { k: 5 }, DENSE_ONLY)));
    } finally {
      await reader.close();
    }
  });
});
