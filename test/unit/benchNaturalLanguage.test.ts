// Protocol N of the bench (test/bench/naturalLanguage): the task builder on a small fixture split,
// the ripgrep system's ranking rule with the real `rg` on a tiny tree, and the metrics.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { Chunker } from '../../engine/src/chunk';
import { loadRepo, type LanguageFamily } from '../../test/bench/split';
import { buildNlTasks, firstParagraph, nameTokens, normalizedWords, withoutName, writeCorpusCopy, type NlTaskSet } from '../../test/bench/naturalLanguage/tasks';
import { rankFiles, ripgrepSearch, searchWords } from '../../test/bench/naturalLanguage/ripgrep';
import { chunkRank, fileRank, mrr10, recall5 } from '../../test/bench/naturalLanguage/metrics';
import { tempDir } from './tempDir';

const SPLIT = path.resolve(__dirname, '../../../test/fixtures/nl-split');
const REPOS: [string, LanguageFamily][] = [['docs-py', 'python'], ['docs-ts', 'typescript'], ['docs-go', 'go']];

describe('bench protocol N: tasks', () => {
  let chunker: Chunker;
  const sets = new Map<string, NlTaskSet>();
  before(async function () {
    this.timeout(60_000); // grammars load on first use; the machine is shared
    chunker = await Chunker.create();
    for (const [name, lang] of REPOS) sets.set(name, await buildNlTasks(loadRepo(SPLIT, name, lang), chunker));
  });
  after(() => chunker.dispose());

  it('makes a task of each function with a description of 8 words or more, in every language', () => {
    const names = (repo: string) => sets.get(repo)!.tasks.map((t) => t.name).sort();
    // `size` and `Shutdown` have short docs; `helper`'s comment is inside its body; `merge_sorted`'s doc is copied there.
    assert.deepStrictEqual(names('docs-py'), ['crc32_bytes', 'evict_oldest', 'read_config_file']);
    assert.deepStrictEqual(names('docs-ts'), ['dequeueFront', 'formatRelativeTime', 'retryWithBackoff']);
    assert.deepStrictEqual(names('docs-go'), ['ListenAndServe', 'ParseHeaderLine']);
    assert.strictEqual(sets.get('docs-py')!.counts.leaked, 1);
    // `toJson` and `toXml` have the same description once each one's name is gone: ambiguous.
    assert.strictEqual(sets.get('docs-ts')!.counts.ambiguous, 2);
  });

  it('leaves no word holding one of the name\'s sub-tokens in the query', () => {
    for (const set of sets.values()) for (const t of set.tasks) {
      const banned = nameTokens(t.name);
      for (const w of t.query.match(/[A-Za-z0-9_$]+/g) ?? []) assert.ok(![...nameTokens(w)].some((x) => banned.has(x)), `${t.name}: '${w}' in '${t.query}'`);
    }
    const go = sets.get('docs-go')!.tasks.find((t) => t.name === 'ListenAndServe')!;
    assert.strictEqual(go.query, 'binds the socket to the configured address answers each incoming connection on its own goroutine.');
  });

  it('takes the description only: no tags, no sections', () => {
    const ts = sets.get('docs-ts')!.tasks.find((t) => t.name === 'retryWithBackoff')!;
    assert.strictEqual(ts.query, 'Calls the operation again after a growing pause until it succeeds or the attempts run out.');
    assert.strictEqual(firstParagraph('Sum two numbers.\n\nArgs:\n  a: first'), 'Sum two numbers.');
    assert.strictEqual(withoutName('Returns the `parseUrl` result for {@link parseUrl}', 'parseUrl'), 'Returns the result for');
  });

  it('blanks each sampled doc in the indexed copy, keeping every line and its length', async () => {
    for (const [name, lang] of REPOS) {
      const repo = loadRepo(SPLIT, name, lang);
      const set = sets.get(name)!;
      const dir = tempDir('nl-copy-');
      try {
        writeCorpusCopy(repo, set.blanked, path.join(dir, 'repos', name));
        const copy = loadRepo(dir, name, lang);
        assert.deepStrictEqual(copy.files.map((f) => f.relPath), repo.files.map((f) => f.relPath));
        for (const f of copy.files) {
          const before = repo.byPath.get(f.relPath)!.lines;
          assert.deepStrictEqual(f.lines.map((l) => l.length), before.map((l) => l.length), f.relPath);
          // A character changed only to a space.
          f.lines.forEach((l, i) => [...l].forEach((c, j) => assert.ok(c === before[i][j] || c === ' ', `${f.relPath}:${i}`)));
        }
        const corpus = normalizedWords(copy.files.map((f) => f.content).join('\n'));
        const original = normalizedWords(repo.files.map((f) => f.content).join('\n'));
        for (const t of set.tasks) {
          assert.ok(original.includes(normalizedWords(t.description)), `${t.name}: description not from the source`);
          assert.ok(!corpus.includes(normalizedWords(t.description)), `${t.name}: description still in the copy`);
          assert.match(copy.byPath.get(t.file)!.lines[t.startLine], new RegExp(`\\b${t.name}\\b`), `${t.name}: declaration line moved`);
        }
        // The blanked files still parse into the same definitions.
        const names = async (file: string, text: string) => (await chunker.chunk(file, text)).definitions.map((d) => d.name);
        for (const [file, text] of set.blanked) assert.deepStrictEqual(await names(file, text), await names(file, repo.byPath.get(file)!.content), file);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    }
  });

  it('draws the same tasks every time, at most the cap per repository', async () => {
    const repo = loadRepo(SPLIT, 'docs-py', 'python');
    const again = await buildNlTasks(repo, chunker);
    assert.deepStrictEqual(again.tasks, sets.get('docs-py')!.tasks);
    assert.strictEqual((await buildNlTasks(repo, chunker, 1)).tasks.length, 1);
  });
});

describe('bench protocol N: ripgrep system', () => {
  let dir: string;
  before(() => {
    dir = tempDir('nl-rg-');
    const write = (rel: string, text: string) => { fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true }); fs.writeFileSync(path.join(dir, rel), text); };
    write('many.ts', 'socket socket socket socket socket\n');
    write('both.ts', 'Socket timeout\n');
    write('both2.ts', 'SOCKET timeout timeout\n');
    write('sub/none.ts', 'nothing here\n');
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('searches each word once, without stop words and words under 3 letters', () => {
    assert.deepStrictEqual(searchWords('Close the socket if it is idle, then close the socket timeout'), ['close', 'socket', 'idle', 'timeout']);
  });

  it('ranks files by distinct words matched, then by matches, then by path', async () => {
    assert.deepStrictEqual(await ripgrepSearch(dir, 'the socket timeout'), ['both2.ts', 'both.ts', 'many.ts']);
    const tie = rankFiles([new Map([['b', 1], ['a', 1]])]);
    assert.deepStrictEqual(tie.map((s) => s.file), ['a', 'b']);
  });

  it('finds nothing for a word in no file', async () => {
    assert.deepStrictEqual(await ripgrepSearch(dir, 'absentword'), []);
  });
});

describe('bench protocol N: metrics', () => {
  const pos = { file: 'b.ts', startLine: 10, endLine: 20 };
  it('ranks the positive file among distinct files, the first ten only', () => {
    assert.strictEqual(fileRank([{ file: 'a.ts' }, { file: 'a.ts' }, { file: 'b.ts' }], pos), 2);
    assert.strictEqual(fileRank(Array.from({ length: 10 }, (_, i) => ({ file: `x${i}` })).concat([{ file: 'b.ts' }]), pos), Infinity);
  });
  it('ranks the first chunk of the positive file overlapping the function', () => {
    const chunks = [{ file: 'b.ts', startLine: 0, endLine: 9 }, { file: 'a.ts', startLine: 10, endLine: 20 }, { file: 'b.ts', startLine: 18, endLine: 40 }];
    assert.strictEqual(chunkRank(chunks, pos), 3);
    assert.strictEqual(chunkRank([{ file: 'b.ts' }], pos), Infinity);
  });
  it('computes MRR@10 and recall@5', () => {
    assert.strictEqual(mrr10([1, 2, Infinity, 11]), 0.375);
    assert.strictEqual(recall5([1, 5, 6, Infinity]), 0.5);
    assert.strictEqual(mrr10([]), 0);
  });
});
