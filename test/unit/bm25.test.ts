import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Bm25Index } from '../../engine/src/lexical/bm25';
import { lexicalTerms, splitIdentifier } from '../../engine/src/lexical/tokenize';
import { tempDir } from './tempDir';

describe('lexical tokenisation', () => {
  it('splits camelCase, PascalCase, acronyms and snake_case, keeping the whole identifier', () => {
    assert.deepStrictEqual(splitIdentifier('HTTPServerError'), ['http', 'server', 'error']);
    assert.deepStrictEqual(splitIdentifier('parse_config_file'), ['parse', 'config', 'file']);
    assert.deepStrictEqual(lexicalTerms('user.getName(x, 42)'), ['user', 'get', 'name', 'getname', '42']);
  });
});

describe('Bm25Index', () => {
  // Hand-computed example: 3 documents, k1 = 1.2, b = 0.75.
  //   d1 = [a, b, a] (len 3), d2 = [b, c] (len 2), d3 = [c, c, c, d] (len 4); avgdl = 3.
  //   idf(a) = ln(1 + (3 - 1 + 0.5) / (1 + 0.5)) = ln(8/3)
  //   query [a]:  d1 = idf(a) * 2 * 2.2 / (2 + 1.2 * (0.25 + 0.75 * 3/3)) = idf(a) * 4.4 / 3.2
  //   query [c]:  idf(c) = ln(1 + 1.5/2.5) = ln(1.6)
  //               d2 = ln(1.6) * 1 * 2.2 / (1 + 1.2 * (0.25 + 0.75 * 2/3)) = ln(1.6) * 2.2 / 1.9
  //               d3 = ln(1.6) * 3 * 2.2 / (3 + 1.2 * (0.25 + 0.75 * 4/3)) = ln(1.6) * 6.6 / 4.5
  const build = () => {
    const idx = new Bm25Index({ k1: 1.2, b: 0.75 });
    idx.add(1, ['a', 'b', 'a']);
    idx.add(2, ['b', 'c']);
    idx.add(3, ['c', 'c', 'c', 'd']);
    return idx;
  };

  it('matches hand-computed Okapi scores', () => {
    const idx = build();
    const a = idx.search(['a'], 10);
    assert.strictEqual(a.length, 1);
    assert.strictEqual(a[0].id, 1);
    assert.ok(Math.abs(a[0].score - (Math.log(8 / 3) * 4.4) / 3.2) < 1e-9);
    const c = idx.search(['c'], 10);
    assert.deepStrictEqual(c.map((r) => r.id), [3, 2]);
    assert.ok(Math.abs(c[0].score - (Math.log(1.6) * 6.6) / 4.5) < 1e-9);
    assert.ok(Math.abs(c[1].score - (Math.log(1.6) * 2.2) / 1.9) < 1e-9);
  });

  it('removal and re-adding give the same scores as a fresh build', () => {
    const idx = build();
    idx.add(4, ['x', 'y']);
    idx.remove(4);
    const fresh = build();
    assert.deepStrictEqual(idx.search(['c', 'a'], 10), fresh.search(['c', 'a'], 10));
    idx.remove(2);
    assert.deepStrictEqual(idx.search(['c'], 10).map((r) => r.id), [3]);
    idx.compact();
    assert.deepStrictEqual(idx.search(['c'], 10).map((r) => r.id), [3]);
  });

  it('round-trips through serialize/deserialize and rejects truncation', () => {
    const idx = build();
    idx.remove(2);
    const buf = idx.serialize();
    const back = Bm25Index.deserialize(buf);
    assert.deepStrictEqual(back.search(['a', 'c', 'd'], 10), idx.search(['a', 'c', 'd'], 10));
    assert.throws(() => Bm25Index.deserialize(buf.subarray(0, buf.length - 3)), /truncated/);
    const bad = Buffer.from(buf);
    bad.writeUInt32LE(0xdeadbeef, 0);
    assert.throws(() => Bm25Index.deserialize(bad), /bad magic/);
  });
});

describe('Bm25Index vocabulary', () => {
  it('keeps non-ASCII and look-alike terms apart, across a merge and a round trip', () => {
    const idx = new Bm25Index({ mergeMinDocs: 2 });
    const terms = ['größe', 'grösse', 'naïve', 'naive', '日本語', '日本', '😀x', 'x😀', 'a', 'A', ''];
    terms.forEach((t, i) => idx.add(i, [t, t, 'common']));
    idx.add(100, ['common']);
    const check = (ix: Bm25Index, what: string) => {
      terms.forEach((t, i) => assert.deepStrictEqual(ix.search([t], 5).map((r) => r.id), [i], `${what}: ${JSON.stringify(t)}`));
      assert.deepStrictEqual(ix.search(['gross'], 5), [], what);
    };
    check(idx, 'merged');
    check(Bm25Index.deserialize(idx.serialize()), 'reloaded');
  });
});

describe('Bm25Index at scale of its merges', () => {
  /** Deterministic PRNG (LCG) so failures reproduce. */
  const rng = (seed: number) => () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296);
  /** A Zipf-like vocabulary: term i drawn with weight 1 / (i + 1). */
  const zipfTerm = (rand: () => number, vocab: number) => `t${Math.floor(Math.exp(rand() * Math.log(vocab + 1))) - 1}`;
  const randomDoc = (rand: () => number, vocab: number): string[] => {
    const n = Math.floor(rand() * 30);
    return Array.from({ length: n }, () => zipfTerm(rand, vocab));
  };

  /** Exhaustive Okapi BM25 over plain maps, terms summed in the index's documented order. */
  function reference(docs: Map<number, string[]>, query: string[], k: number, accept?: (id: number) => boolean) {
    const k1 = 1.2, b = 0.75;
    const c = corpusStats(docs);
    const qtf = new Map<string, number>();
    for (const t of query) if (c.df.has(t)) qtf.set(t, (qtf.get(t) ?? 0) + 1);
    const weights = [...qtf].map(([t, q]) => ({ t, w: Math.log(1 + (c.n - c.df.get(t)! + 0.5) / (c.df.get(t)! + 0.5)) * q }));
    weights.sort((x, y) => y.w - x.w || (x.t < y.t ? -1 : x.t > y.t ? 1 : 0));
    const out: { id: number; score: number }[] = [];
    for (const [id, { len, tf }] of c.docs) {
      if (accept && !accept(id)) continue;
      let score = 0;
      for (const { t, w } of weights) {
        const f = tf.get(t);
        if (f) score += (w * f * (k1 + 1)) / (f + k1 * (1 - b + (b * len) / c.avg));
      }
      if (score > 0) out.push({ id, score });
    }
    out.sort((x, y) => y.score - x.score || x.id - y.id);
    return out.slice(0, k);
  }

  /** Document frequencies and per-document term counts, cached until the map's content changes. */
  const statsCache = new WeakMap<Map<number, string[]>, { key: string; stats: ReturnType<typeof computeStats> }>();
  function corpusStats(docs: Map<number, string[]>) {
    const key = [...docs.keys()].join(',') + '|' + [...docs.values()].map((d) => d.length).join(',');
    const hit = statsCache.get(docs);
    if (hit && hit.key === key) return hit.stats;
    const stats = computeStats(docs);
    statsCache.set(docs, { key, stats });
    return stats;
  }
  function computeStats(docs: Map<number, string[]>) {
    let total = 0;
    const df = new Map<string, number>();
    const perDoc = new Map<number, { len: number; tf: Map<string, number> }>();
    for (const [id, terms] of docs) {
      total += terms.length;
      const tf = new Map<string, number>();
      for (const t of terms) tf.set(t, (tf.get(t) ?? 0) + 1);
      for (const t of tf.keys()) df.set(t, (df.get(t) ?? 0) + 1);
      perDoc.set(id, { len: terms.length, tf });
    }
    return { n: docs.size, avg: total / docs.size || 1, df, docs: perDoc };
  }

  const dfOf = (docs: Map<number, string[]>, term: string) => [...docs.values()].filter((d) => d.includes(term)).length;

  function assertSameRanking(actual: { id: number; score: number }[], expected: { id: number; score: number }[], what: string) {
    assert.deepStrictEqual(actual.map((r) => r.id), expected.map((r) => r.id), what);
    for (let i = 0; i < actual.length; i++) assert.ok(Math.abs(actual[i].score - expected[i].score) < 1e-9, `${what}: score ${i}`);
  }

  for (const spill of [false, true])
    it(`random add/remove/replace sequences across merges score like a fresh build and like exhaustive BM25${spill ? ' (merged postings in a scratch file)' : ''}`, function () {
      this.timeout(120_000); // a second alone; generous for a loaded machine
      const rand = rng(42);
      const vocab = 60;
      const live = new Map<number, string[]>();
      const idx = new Bm25Index({ mergeMinDocs: 16 });
      // 0: every merge writes its new base's postings to a scratch file and reads them from there.
      if (spill) idx.mergeSpillBytes = 0;
      for (let round = 0; round < 40; round++) {
        const ops = 5 + Math.floor(rand() * 60);
        for (let o = 0; o < ops; o++) {
          const id = Math.floor(rand() * 200) - 20; // some negative ids too
          if (rand() < 0.3) {
            assert.strictEqual(idx.remove(id), live.delete(id));
          } else {
            const doc = randomDoc(rand, vocab);
            idx.add(id, doc); // a replace when the id is live
            live.set(id, doc);
          }
        }
        if (round % 7 === 3) {
          idx.compact();
          assert.strictEqual(idx.onDisk, spill && live.size > 0, 'postings of a spilled merge are read from its file');
        }
        assert.strictEqual(idx.size, live.size);
        const fresh = new Bm25Index();
        for (const [id, doc] of live) fresh.add(id, doc);
        for (let q = 0; q < 5; q++) {
          const query = Array.from({ length: 1 + Math.floor(rand() * 40) }, () => zipfTerm(rand, vocab + 5));
          const k = 1 + Math.floor(rand() * 12);
          const odd = (id: number) => id % 2 !== 0;
          assertSameRanking(idx.search(query, k), fresh.search(query, k), `round ${round}: incremental vs fresh`);
          assertSameRanking(idx.search(query, k), reference(live, query, k), `round ${round}: incremental vs exhaustive`);
          assertSameRanking(idx.search(query, k, odd), reference(live, query, k, odd), `round ${round}: filtered`);
          assert.ok(Math.abs(idx.idf(query[0]) - fresh.idf(query[0])) < 1e-12);
        }
      }
    });

  it('prunes nothing that belongs in the top k on a larger corpus with long queries', function () {
    this.timeout(120_000); // a few seconds alone; generous for a loaded machine
    const rand = rng(7);
    const vocab = 3000;
    const live = new Map<number, string[]>();
    const idx = new Bm25Index({ mergeMinDocs: 300 });
    for (let id = 0; id < 3000; id++) {
      const doc = Array.from({ length: 20 + Math.floor(rand() * 80) }, () => zipfTerm(rand, vocab));
      if (id % 1000 === 1) for (let r = 0; r < 300; r++) doc.push('t0'); // tf above one byte
      idx.add(id, doc);
      live.set(id, doc);
    }
    for (let id = 0; id < 3000; id += 7) {
      idx.remove(id);
      live.delete(id);
    }
    // Frequent terms of the packed base are held densely; removals must still count against them.
    assert.ok(Math.abs(idx.idf('t0') - Math.log(1 + (live.size - dfOf(live, 't0') + 0.5) / (dfOf(live, 't0') + 0.5))) < 1e-12);
    const ids = [...live.keys()];
    const reloaded = Bm25Index.deserialize(idx.serialize());
    for (let q = 0; q < 15; q++) {
      // Queries like a code window: half from one live document, half from the vocabulary.
      const source = live.get(ids[Math.floor(rand() * ids.length)])!;
      const query = Array.from({ length: 40 + Math.floor(rand() * 40) }, (_, i) =>
        i % 2 === 0 ? source[Math.floor(rand() * source.length)] : zipfTerm(rand, vocab));
      for (const k of [1, 10, 50]) {
        assertSameRanking(idx.search(query, k), reference(live, query, k), `query ${q}, k ${k}`);
        const accept = (id: number) => id % 3 !== 0;
        assertSameRanking(idx.search(query, k, accept), reference(live, query, k, accept), `query ${q}, k ${k}, filtered`);
        assertSameRanking(reloaded.search(query, k), reference(live, query, k), `query ${q}, k ${k}, reloaded`);
      }
    }
  });

  it('round-trips a merged and a partly mutable index; rejects old, corrupt and truncated bytes', () => {
    const rand = rng(3);
    const idx = new Bm25Index({ mergeMinDocs: 32 });
    for (let id = 0; id < 200; id++) idx.add(id * 3, randomDoc(rand, 80));
    for (let id = 0; id < 200; id += 5) idx.remove(id * 3);
    idx.add(1_000_000, ['t1', 't2', 't2']);
    const query = Array.from({ length: 30 }, () => zipfTerm(rand, 80));
    const before = idx.search(query, 20);
    const buf = idx.serialize();
    const back = Bm25Index.deserialize(buf);
    assert.strictEqual(back.size, idx.size);
    assertSameRanking(back.search(query, 20), before, 'after round trip');
    assert.deepStrictEqual(back.serialize(), buf);

    const old = Buffer.from(buf);
    old.writeUInt32LE(1, 4);
    assert.throws(() => Bm25Index.deserialize(old), /format 1, expected 2/);
    for (const at of [60, Math.floor(buf.length / 2), buf.length - 1]) {
      const flipped = Buffer.from(buf);
      flipped[at] ^= 0x40;
      assert.throws(() => Bm25Index.deserialize(flipped), /corrupt/, `byte ${at}`);
    }
    for (const len of [0, 7, 40, buf.length - 1]) {
      assert.throws(() => Bm25Index.deserialize(buf.subarray(0, len)), /truncated/, `length ${len}`);
    }
  });
});

describe('Bm25Index on disk', () => {
  const rng = (seed: number) => () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296);
  const zipfTerm = (rand: () => number, vocab: number) => `t${Math.floor(Math.exp(rand() * Math.log(vocab + 1))) - 1}`;
  const openFds = () => (fs.existsSync('/proc/self/fd') ? fs.readdirSync('/proc/self/fd').length : -1);
  let dir: string;
  beforeEach(() => (dir = tempDir('rr-bm25-')));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  /** Opens a saved index the way the store does: postings stay in the file, read per query term. */
  function openDiskBacked(file: string): Bm25Index {
    const fd = fs.openSync(file, 'r');
    try {
      return Bm25Index.deserialize(fs.readFileSync(fd), { fd, path: file });
    } catch (err) {
      fs.closeSync(fd);
      throw err;
    }
  }

  /** 3000 documents: above the dense threshold (frequent terms held by slot), tf above 255 in a few. */
  function corpus(rand: () => number): { mem: Bm25Index; docs: Map<number, string[]> } {
    const mem = new Bm25Index({ mergeMinDocs: 300 });
    const docs = new Map<number, string[]>();
    for (let id = 0; id < 3000; id++) {
      const doc = Array.from({ length: 20 + Math.floor(rand() * 80) }, () => zipfTerm(rand, 3000));
      if (id % 1000 === 1) for (let r = 0; r < 300; r++) doc.push('t0');
      mem.add(id, doc);
      docs.set(id, doc);
    }
    return { mem, docs };
  }

  function queries(rand: () => number, docs: Map<number, string[]>, n: number): string[][] {
    const ids = [...docs.keys()];
    return Array.from({ length: n }, () => {
      const source = docs.get(ids[Math.floor(rand() * ids.length)])!;
      return Array.from({ length: 20 + Math.floor(rand() * 60) }, (_, i) =>
        i % 2 === 0 ? source[Math.floor(rand() * source.length)] : zipfTerm(rand, 3000));
    });
  }

  /** Same ids and bit-identical scores, with and without a filter, at several k. */
  function assertSame(disk: Bm25Index, mem: Bm25Index, qs: string[][], what: string) {
    for (const [i, q] of qs.entries()) {
      for (const k of [1, 10, 50]) {
        assert.deepStrictEqual(disk.search(q, k), mem.search(q, k), `${what}: query ${i}, k ${k}`);
        const odd = (id: number) => id % 3 !== 0;
        assert.deepStrictEqual(disk.search(q, k, odd), mem.search(q, k, odd), `${what}: query ${i}, k ${k}, filtered`);
      }
    }
  }

  it('searches exactly like the in-memory index after save and reopen, through removals, adds, merges and a second save', function () {
    this.timeout(120_000);
    const fds = openFds();
    const rand = rng(11);
    const { mem, docs } = corpus(rand);
    const file = path.join(dir, 'lexical.bin');
    const saved = mem.serialize();
    const written = new Bm25Index({ mergeMinDocs: 300 });
    for (const [id, doc] of docs) written.add(id, doc);
    const digest = written.save(file);
    assert.ok(written.onDisk, 'after save, the saved index reads its postings from the file');
    assert.deepStrictEqual(fs.readFileSync(file), saved, 'save writes what serialize returns');
    assert.strictEqual(digest.bytes, saved.length);

    const disk = openDiskBacked(file);
    assert.ok(disk.onDisk && !mem.onDisk);
    const qs = queries(rand, docs, 12);
    assertSame(disk, mem, qs, 'reopened');
    assertSame(written, mem, qs, 'saved in place');

    // Removals against the file-backed base (dead counts decode its lists), then adds, below a merge.
    const both = (f: (ix: Bm25Index) => void) => { f(mem); f(disk); };
    for (let id = 0; id < 3000; id += 29) both((ix) => ix.remove(id));
    for (let id = 5000; id < 5100; id++) {
      const doc = Array.from({ length: 30 }, () => zipfTerm(rand, 3000));
      both((ix) => ix.add(id, doc));
    }
    both((ix) => ix.add(7, ['t1', 't1', 'replaced']));
    assert.ok(disk.onDisk, 'no merge yet');
    assertSame(disk, mem, qs, 'after removals and adds');

    // A merge reads the file-backed base and leaves the new base in memory. (A loaded index merges
    // at the default threshold, so its merges come at other times than the in-memory one's.)
    for (let id = 6000; id < 6500; id++) {
      const doc = Array.from({ length: 25 }, () => zipfTerm(rand, 3000));
      both((ix) => ix.add(id, doc));
    }
    assertSame(disk, mem, qs, 'before the merge');
    disk.compact();
    assert.ok(!disk.onDisk, 'merged into memory');
    assertSame(disk, mem, qs, 'after a merge');

    // Second save over the file it was loaded from, then reopen that.
    for (let id = 1; id < 3000; id += 31) both((ix) => ix.remove(id));
    disk.save(file);
    assert.ok(disk.onDisk);
    assert.deepStrictEqual(fs.readFileSync(file), mem.serialize(), 'the second save writes the merged index');
    assertSame(disk, mem, qs, 'after the second save');
    const again = openDiskBacked(file);
    assertSame(again, mem, qs, 'reopened after the second save');

    // Saving a file-backed index without changes copies its postings from the open file.
    const copy = path.join(dir, 'copy.bin');
    again.save(copy);
    assert.deepStrictEqual(fs.readFileSync(copy), fs.readFileSync(file));
    assertSame(again, mem, qs, 'after saving a copy');
    assert.deepStrictEqual(again.serialize(), mem.serialize());
    // ... also over the very file it reads from (the copy is renamed over it).
    again.save(file);
    assert.ok(again.onDisk);
    assert.deepStrictEqual(fs.readFileSync(file), fs.readFileSync(copy));
    assertSame(again, mem, qs, 'after saving over its own file');

    for (const ix of [written, disk, again]) ix.close();
    if (fds >= 0) assert.strictEqual(openFds(), fds, 'every index file is closed');
  });

  it('a merge that writes its postings to a scratch file (dense terms too) searches, saves and reopens like the in-memory merge, and leaves no descriptor open', function () {
    this.timeout(60_000); // under a second alone
    const rand = rng(11);
    const { mem, docs } = corpus(rand);
    const fdsBefore = openFds();
    const spilled = new Bm25Index({ mergeMinDocs: 300 });
    spilled.mergeSpillBytes = 0;
    for (const [id, doc] of docs) spilled.add(id, doc);
    for (let id = 0; id < 3000; id += 7) {
      mem.remove(id);
      spilled.remove(id);
    }
    mem.compact();
    spilled.compact();
    assert.ok(!mem.onDisk && spilled.onDisk);
    const qs = queries(rand, docs, 30);
    assertSame(spilled, mem, qs, 'spilled merge');
    const file = path.join(dir, 'spilled.bin');
    spilled.save(file);
    assertSame(spilled, mem, qs, 'after its save');
    const reopened = openDiskBacked(file);
    assertSame(reopened, mem, qs, 'reopened');
    reopened.close();
    spilled.close();
    if (fdsBefore >= 0) assert.strictEqual(openFds(), fdsBefore);
    assert.deepStrictEqual(fs.readdirSync(os.tmpdir()).filter((f) => f.startsWith(`reporecall-lexical-merge-${process.pid}-`)), []);
  });

  it('a reader keeps its file when a writer saves over it', () => {
    const rand = rng(5);
    const { mem, docs } = corpus(rand);
    const file = path.join(dir, 'lexical.bin');
    mem.save(file);
    const reader = openDiskBacked(file);
    const qs = queries(rand, docs, 6);
    const expected = qs.map((q) => reader.search(q, 10));
    // The writer changes its index and saves: a new file is renamed over the reader's.
    for (let id = 0; id < 3000; id += 2) mem.remove(id);
    mem.save(file);
    assert.deepStrictEqual(qs.map((q) => reader.search(q, 10)), expected);
    assert.notDeepStrictEqual(qs.map((q) => mem.search(q, 10)), expected);
    reader.close();
    mem.close();
  });

  it('a file truncated under a search fails it with an error, and the next search starts clean', () => {
    const rand = rng(9);
    const { mem, docs } = corpus(rand);
    const file = path.join(dir, 'lexical.bin');
    mem.save(file);
    const bytes = fs.readFileSync(file);
    const disk = openDiskBacked(file);
    const qs = queries(rand, docs, 8);
    const expected = qs.map((q) => mem.search(q, 10));
    // In place (same inode, unlike a save): the open descriptor now sees a short file.
    fs.truncateSync(file, 200);
    let failed = 0;
    for (const q of qs) {
      try {
        disk.search(q, 10);
      } catch (err) {
        assert.match((err as Error).message, /ended early|outside/);
        failed++;
      }
    }
    assert.ok(failed > 0, 'reads past the end failed');
    fs.writeFileSync(file, bytes); // the same inode again, whole
    assert.deepStrictEqual(qs.map((q) => disk.search(q, 10)), expected, 'no partial scores left behind');
    disk.close();
    mem.close();
    assert.throws(() => disk.search(qs[0], 10), /after close/);
  });
});

describe('Bm25Index query budget', () => {
  // 400 documents: "common" in all, "often" in every 2nd, "some" in every 8th, one rare term each.
  function corpus(maxQueryPostings?: number): Bm25Index {
    const idx = new Bm25Index({ maxQueryPostings });
    for (let d = 0; d < 400; d++) {
      const terms = ['common', `rare${d}`, `rare${d}`];
      if (d % 2 === 0) terms.push('often');
      if (d % 8 === 0) terms.push('some', 'some');
      for (let i = 0; i < d % 5; i++) terms.push('filler');
      idx.add(d, terms);
    }
    return idx;
  }
  const query = ['common', 'often', 'some', ...Array.from({ length: 10 }, (_, i) => `rare${i * 7}`)];

  it('is exact while the postings of the query fit the budget', () => {
    assert.deepStrictEqual(corpus(1_000_000).search(query, 10), corpus(Infinity).search(query, 10));
  });

  it('over the budget, drops the most common terms first and keeps at least eight', () => {
    // 10 rare terms (1 posting each) + some (50) fit in 60 postings; often (200) and common (400) do not.
    const budgeted = corpus(60).search(query, 10);
    const withoutCommon = corpus(Infinity).search(query.filter((t) => t !== 'common' && t !== 'often'), 10);
    assert.deepStrictEqual(budgeted, withoutCommon);
    assert.notDeepStrictEqual(budgeted, corpus(Infinity).search(query, 10), 'the budget changed something');
    // A budget below even the rarest terms still keeps eight of them.
    const tiny = corpus(1).search(query, 20);
    assert.strictEqual(new Set(tiny.map((h) => h.id)).size, 8);
  });
});
