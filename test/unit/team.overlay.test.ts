// The editor's reading of a team index (team/overlay.ts) against a real PostgreSQL server: the
// team's rows for unchanged files, the local index's for the files the user changed, the local
// index alone (and a state saying so) when the server is slow or down, and the team again once
// it answers. The server is reached through a TCP relay that the test can stall (a server that
// accepts and never answers) to exercise the per-request deadline.
import * as assert from 'assert';
import * as fs from 'fs';
import * as net from 'net';
import * as os from 'os';
import * as path from 'path';
import type { TeamState } from '../../engine/src/api';
import { Engine } from '../../engine/src/engine';
import type { EditorState } from '../../engine/src/types';
import { TeamIndexReader } from '../../engine/src/team/reader';
import { writeTeamIndex } from '../../engine/src/team/writer';
import { copyEngineSources, startPostgresOrSkip, SUPERUSER_PASSWORD, type PgServer } from './team.helpers';
import { localRanking, queriesFor, teamRanking } from './team.postgres.test';

/** A TCP relay to the server; `stall()` stops passing bytes (a server that hangs), `flow()` resumes. */
async function relay(targetPort: number): Promise<{ port: number; stall(): void; flow(): void; close(): void }> {
  let stalled = false;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(targetPort, '127.0.0.1');
    sockets.add(client).add(upstream);
    const pass = (from: net.Socket, to: net.Socket) => from.on('data', (d) => void (!stalled && to.write(d)));
    pass(client, upstream);
    pass(upstream, client);
    const end = () => { client.destroy(); upstream.destroy(); sockets.delete(client); sockets.delete(upstream); };
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    stall: () => { stalled = true; },
    flow: () => { stalled = false; },
    close: () => { for (const s of sockets) s.destroy(); server.close(); },
  };
}

async function until<T>(what: string, f: () => Promise<T | undefined>, tries = 200): Promise<T> {
  for (let i = 0; i < tries; i++) {
    const x = await f();
    if (x !== undefined) return x;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`gave up waiting for ${what}`);
}

describe('team index in the editor: overlay of local changes, fallback and recovery (PostgreSQL)', function () {
  this.timeout(300_000);
  let pg: PgServer;
  let root: string;
  const dirs: string[] = [];
  const tmp = () => { const d = fs.mkdtempSync(path.join(os.tmpdir(), 'rr-overlay-')); dirs.push(d); return d; };

  before(async function () {
    pg = await startPostgresOrSkip(this);
    root = copyEngineSources();
    const w = await writeTeamIndex({ root, url: pg.url(), repo: 'engine', dense: false });
    assert.ok(w.committed);
  });

  after(() => {
    pg?.stop();
    if (root) fs.rmSync(root, { recursive: true, force: true });
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  });

  it('ranks as the team index while nothing changed; an edited file answers with its new content, a deleted one not at all', async () => {
    const states: TeamState[] = [];
    // The URL holds no password: the editor's stored secret comes separately.
    const url = `postgres://postgres@127.0.0.1:${pg.port}/postgres`;
    const engine = await Engine.open({ root, indexDir: tmp(), dense: false, team: { url, password: SUPERUSER_PASSWORD, repo: 'engine', timeoutMs: 20_000, retryMs: 200 }, onTeamState: (s) => states.push(s) });
    const reader = await TeamIndexReader.open(pg.url(), 'engine');
    try {
      await engine.indexAll();
      assert.strictEqual((await engine.team!.settled()).state, 'team', JSON.stringify(engine.team!.state));
      assert.deepStrictEqual(engine.team!.overlayPaths(), []);
      const queries = queriesFor(root).slice(0, 12);
      for (const q of queries) {
        assert.deepStrictEqual(await localRanking(engine, q), await teamRanking(reader, q), typeof q === 'string' ? q : `${q.file}:${q.line}`);
      }
      assert.strictEqual(engine.stats().team?.state, 'team');

      // An unsaved edit: a new function in a file the team index has in its old form.
      const edited = 'lexical/tokenize.ts';
      const marker = 'export function zebraQuuxFrobnicateTokens(text: string): number {\n  return text.length * 7;\n}\n';
      const newContent = fs.readFileSync(path.join(root, edited), 'utf8').replace(/^export function /m, marker + '\nexport function ');
      await engine.updateFile(edited, newContent);
      assert.deepStrictEqual(engine.team!.overlayPaths(), [edited]);
      const found = await engine.retrieve('zebra quux frobnicate tokens', { k: 5 });
      assert.strictEqual(found[0]?.file, edited);
      assert.match(found[0].text, /zebraQuuxFrobnicateTokens/);
      // The team alone does not know it; and every hit of the edited file is from its new text.
      assert.ok(!(await teamRanking(reader, 'zebra quux frobnicate tokens')).some((r) => r.includes('zebra')));
      for (const q of ['split identifier into sub tokens', 'lexical terms of a text', ...queries.slice(0, 6)]) {
        for (const h of await engine.retrieve(q, { k: 10, compact: false, maxLinesPerHit: 10_000 })) {
          if (h.file === edited) assert.ok(newContent.split('\n').slice(h.startLine, h.endLine + 1).join('\n').includes(h.text.split('\n')[0]), `${h.file}:${h.startLine}`);
        }
      }

      // A file deleted locally is not returned, though the team index still has it.
      const before = await engine.retrieve('BM25 score of a document', { k: 10 });
      const gone = before[0].file;
      assert.notStrictEqual(gone, edited);
      fs.rmSync(path.join(root, gone));
      await engine.removeFile(gone);
      assert.deepStrictEqual(engine.team!.overlayPaths(), [edited, gone].sort());
      const after = await engine.retrieve('BM25 score of a document', { k: 10 });
      assert.ok(after.length > 0);
      assert.ok(!after.some((h) => h.file === gone), after.map((h) => h.file).join(' '));
      assert.ok((await teamRanking(reader, 'BM25 score of a document')).some((r) => r.startsWith(gone + ':')));
      assert.strictEqual(states[states.length - 1].state, 'team');
      assert.strictEqual(states[states.length - 1].overlayFiles, 2);

      // A new commit (the deleted file gone from the team index too): the next query sees the new
      // generation and recomputes the overlay against it; the unsaved edit stays local.
      const w2 = await writeTeamIndex({ root, url: pg.url(), repo: 'engine', dense: false });
      assert.strictEqual(w2.removedFiles, 1);
      const afterCommit = await engine.retrieve('zebra quux frobnicate tokens', { k: 5 });
      assert.strictEqual(afterCommit[0]?.file, edited);
      assert.deepStrictEqual(engine.team!.overlayPaths(), [edited]);
      assert.strictEqual(engine.stats().team?.generation, w2.generation);
    } finally {
      await reader.close();
      await engine.close();
    }
  });

  it('a server that hangs or is down: the local index answers and the state says so; the team answers again once it is back', async () => {
    const r = await relay(pg.port);
    const states: TeamState[] = [];
    const url = `postgres://postgres@127.0.0.1:${r.port}/postgres`;
    const engine = await Engine.open({ root, indexDir: tmp(), dense: false, team: { url, password: SUPERUSER_PASSWORD, repo: 'engine', timeoutMs: 3_000, retryMs: 300 }, onTeamState: (s) => states.push(s) });
    const plain = await Engine.open({ root, indexDir: tmp(), dense: false });
    const q: EditorState | string = 'cosine similarity of two vectors';
    try {
      await engine.indexAll();
      await plain.indexAll();
      assert.strictEqual((await engine.team!.settled()).state, 'team');
      const fromTeam = await localRanking(engine, q);
      assert.ok(fromTeam.length > 0);

      // Hangs: no answer within the deadline -> this request answers locally, state 'slow'.
      r.stall();
      const whileStalled = await localRanking(engine, q);
      assert.strictEqual(engine.stats().team?.state, 'slow');
      assert.deepStrictEqual(whileStalled, await localRanking(plain, q));
      // A cancelled request rejects at once, whatever the server does.
      r.flow();
      const ac = new AbortController();
      ac.abort();
      await assert.rejects(engine.retrieve(q, { signal: ac.signal }), (e: Error) => e.name === 'AbortError');

      // Back: after the pause the team answers again.
      await until('the team index to answer again', async () => {
        await engine.retrieve(q);
        await engine.team!.settled();
        return engine.stats().team?.state === 'team' ? true : undefined;
      });
      assert.deepStrictEqual(await localRanking(engine, q), fromTeam);

      // Down: connection refused -> local answers, state 'unreachable'; up again -> the team.
      pg.crash();
      assert.deepStrictEqual(await localRanking(engine, q), await localRanking(plain, q));
      await engine.team!.settled();
      await localRanking(engine, q);
      assert.strictEqual(engine.stats().team?.state, 'unreachable', JSON.stringify(engine.stats().team));
      assert.ok(!JSON.stringify(states).includes(SUPERUSER_PASSWORD));
      pg.start();
      await until('recovery after the server restarts', async () => {
        await engine.retrieve(q);
        await engine.team!.settled();
        return engine.stats().team?.state === 'team' ? true : undefined;
      });
      assert.deepStrictEqual(await localRanking(engine, q), fromTeam);
      assert.deepStrictEqual(states.map((s) => s.state).filter((s, i, a) => s !== a[i - 1]), ['connecting', 'team', 'slow', 'team', 'unreachable', 'team']);
    } finally {
      r.close();
      await engine.close();
      await plain.close();
    }
  });
});
