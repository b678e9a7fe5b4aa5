// search_code's questions in words (engine/src/retrieve/prose.ts, fileEvidence.ts): a prose query is
// told from code by its shape, searched by its content words and the inflections of them the index
// holds, and a file holding more of the question ranks above one whose single chunk scores a little higher.
import * as assert from 'assert';
import { inflections, isProse, proseConcepts } from '../../engine/src/retrieve/prose';
import { withFileEvidence, type ScoredDoc } from '../../engine/src/retrieve/fileEvidence';
import { searchCode } from '../../engine/src/agentTools/searchCode';
import { indexedWorkspace, type IndexedWorkspace } from './workspace.helpers';

describe('prose queries', () => {
  it('tells a sentence from code by its shape', () => {
    for (const q of ['where are expired sessions refreshed', 'Returns the number of rows written before the stream was closed.', 'Parse the `config` file, then (if it exists) load its plugins',
      'Returns a converter for {@code type}, or null if {@code type} cannot be handled by this factory. <p>See {@link Retrofit#create}, https://example.com/a?b=c.']) assert.ok(isProse(q), q);
    for (const q of ['refreshToken(user)', 'const rows = parse(config);', 'def refresh(self):\n    return self.token', 'a.b().c', 'if (x == y) { return z; }', 'HTTPServerError']) assert.ok(!isProse(q), q);
  });

  it('keeps content words with the inflections the index holds, sub-tokens of identifiers as for code', () => {
    const known = new Set(['return', 'parse', 'parser', 'configuration', 'configure', 'session', 'sessions', 'copied', 'token', 'refresh']);
    assert.deepStrictEqual(proseConcepts('Returns the parsed configuration of all sessions', (t) => known.has(t)), [
      ['returns', 'return'], ['parsed', 'parse'], ['configuration', 'configure'], ['sessions', 'session'],
    ]);
    assert.deepStrictEqual(inflections('copies', (t) => known.has(t)), ['copies', 'copied']);
    // `parser` is another word (Porter2 keeps it whole), not an inflection of `parse`.
    assert.ok(!inflections('parsing', (t) => known.has(t)).includes('parser'));
    assert.deepStrictEqual(proseConcepts('if the refreshToken is stale', (t) => known.has(t)), [['refresh'], ['token'], ['refreshtoken'], ['stale']]);
  });
});

describe('file evidence', () => {
  const fileOf = (id: number): string => (id < 10 ? 'a.py' : 'b.py');
  const doc = (id: number, score: number): ScoredDoc => ({ id, score, signals: {} });

  it('ranks a file with several good chunks above a file with one slightly better chunk', () => {
    const out = withFileEvidence([doc(1, 0.05), doc(11, 0.048), doc(12, 0.045), doc(13, 0.04)], fileOf);
    assert.deepStrictEqual(out.map((d) => d.id), [11, 12, 13, 1]);
  });

  it('ranks the file holding more of the question first when chunk scores tie', () => {
    const out = withFileEvidence([doc(1, 0.05), doc(11, 0.05)], fileOf, () => new Map([['a.py', 0.25], ['b.py', 0.75]]));
    assert.deepStrictEqual(out.map((d) => d.id), [11, 1]);
  });
});

describe('search_code with a question in words', function () {
  this.timeout(60_000);
  let ws: IndexedWorkspace;

  before(async () => {
    ws = await indexedWorkspace({
      // The answer says `renew`, `expire`, `session`; the question says `renewing expired sessions`.
      'src/sessions.py': [
        'class Store:',
        '    def renew(self, session):',
        '        session.deadline = self.clock() + self.ttl',
        '',
        '    def expire(self, session):',
        '        session.deadline = 0',
        '',
      ].join('\n'),
      // A decoy holding one of the question's words as written.
      'src/notes.py': 'def render_note(text):\n    # open sessions are listed in the handbook\n    return text.strip()\n',
      // Each function holds one or two of the question's concepts; together they hold all of them.
      'src/intervals.py': [
        'def merge(a, b):\n    return (min(a[0], b[0]), max(a[1], b[1]))\n',
        'def overlaps(x, y):\n    return x[0] <= y[1] and y[0] <= x[1]\n',
        'def interval_length(i):\n    return i[1] - i[0]\n',
        'def sort_ranges(rs):\n    rs.sort(key=lambda r: r[0])\n    return rs\n',
      ].join('\n'),
      // One function holding two of the question's words as written.
      'src/misc.py': 'def merge_sorted(xs, ys):\n    return sorted(xs + ys)\n',
    }, 'rr-prose-search');
  });
  after(() => ws.dispose());

  it('finds code named with other inflections of the question\'s words', async () => {
    const r = await searchCode(ws.engine, { query: 'renewing expired sessions of the store', limit: 5 });
    assert.strictEqual(r.results[0]?.path, 'src/sessions.py', JSON.stringify(r.results.map((h) => h.path)));
  });

  it('ranks first the file that holds the whole question over one function holding two of its words', async () => {
    const r = await searchCode(ws.engine, { query: 'merge overlapping intervals into sorted ranges', limit: 5 });
    assert.strictEqual(r.results[0]?.path, 'src/intervals.py', JSON.stringify(r.results.map((h) => [h.path, h.symbol])));
  });
});
