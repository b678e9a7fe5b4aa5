// Parity of the lean WordPiece tokenizer with @huggingface/tokenizers: identical ids on real code
// (this repository's sources and node_modules JS/TS) and fuzzed strings, identical truncation, and
// identical embeddings from the shipped model either way.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { Tokenizer } from '@huggingface/tokenizers';
import { OnnxEmbedder } from '../../engine/src/embed';
import { TextTokenizer } from '../../engine/src/embed/textTokenizer';
import { WordPieceTokenizer } from '../../engine/src/embed/wordPieceTokenizer';
import { mulberry32 as rng } from '../../engine/src/util/prng';

const ROOT = path.resolve(__dirname, '../../..');
const MODEL_DIR = path.join(ROOT, 'models/reporecall-code');

function readTokenizer(): { json: Record<string, unknown>; config: Record<string, unknown> } {
  return {
    json: JSON.parse(fs.readFileSync(path.join(MODEL_DIR, 'tokenizer.json'), 'utf8')) as Record<string, unknown>,
    config: JSON.parse(fs.readFileSync(path.join(MODEL_DIR, 'tokenizer_config.json'), 'utf8')) as Record<string, unknown>,
  };
}

/** Source files under `dir` with the given extensions, depth-first, at most `limit`. */
function listFiles(dir: string, exts: string[], limit: number, out: string[] = []): string[] {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name));
  } catch {
    return out;
  }
  for (const e of entries) {
    if (out.length >= limit) break;
    const p = path.join(dir, e.name);
    if (e.isDirectory()) {
      if (e.name === '.git' || e.name === 'out') continue;
      listFiles(p, exts, limit, out);
    } else if (e.isFile() && exts.some((x) => e.name.endsWith(x))) {
      out.push(p);
    }
  }
  return out;
}

/** Lines and 1-40-line chunks of real code: this repository's sources plus node_modules JS/TS. */
function realSnippets(min: number): string[] {
  const exts = ['.ts', '.js', '.mjs', '.cjs'];
  const files = [
    ...listFiles(path.join(ROOT, 'engine'), exts, 400),
    ...listFiles(path.join(ROOT, 'extension'), exts, 200),
    ...listFiles(path.join(ROOT, 'test'), exts, 300),
    ...listFiles(path.join(ROOT, 'node_modules'), exts, 600),
  ];
  const rand = rng(7);
  const snippets: string[] = [];
  for (const file of files) {
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    if (text.length > 400_000) text = text.slice(0, 400_000); // minified bundles: a prefix is plenty
    const lines = text.split('\n');
    for (let i = 0; i < lines.length && i < 60; i++) if (lines[i].trim()) snippets.push(lines[i]);
    for (let at = 0; at < lines.length; at += 25) {
      snippets.push(lines.slice(at, at + 1 + Math.floor(rand() * 40)).join('\n'));
    }
  }
  assert.ok(snippets.length >= min, `only ${snippets.length} real snippets found`);
  return snippets;
}

const FUZZ_PIECES = [
  'getHTTPResponse', 'XMLHttpRequest', 'parseJSON2Yaml', 'ABCdef', 'aB', 'AB', 'ABC123def', '__init__', 'snake_case_name',
  'café', 'naïve', 'Ünïcödé', 'ß', 'İstanbul', 'ΑΒΓαβγ', 'Привет', '日本語テキスト', '中文', '한국어', 'العربية', 'עברית',
  '😀', '👩‍💻', '🇫🇷', 'a😀b', '\u0301', 'e\u0301', '\u200b', '\u00a0', '\u2028', '\u3000', '\ufeff', '\t', '\r\n', '\n\n',
  '\uD800', '\uDC00x', '0', '007', '3.14159', '1e10', '0xFF', '12345678901234567890', '->', '=>', '!==', '...', '#', '##',
  '##ing', '[UNK]', '[CLS]', '<|endoftext|>', '\\u0041', '`${x}`', '/* */', '// c', 'a'.repeat(99), 'b'.repeat(100), 'c'.repeat(101),
  'Q'.repeat(150), '9'.repeat(120), 'xY'.repeat(60), '😀'.repeat(101), 'é'.repeat(100), 'é'.repeat(101),
];

function fuzzStrings(count: number): string[] {
  const rand = rng(42);
  const pick = <T>(xs: T[]) => xs[Math.floor(rand() * xs.length)];
  const spaces = [' ', '  ', '\t', '\n', '\r\n', '\u00a0', '\u2003', '\u3000', '\u000b', '\u000c', '\u0085', '\u1680', ''];
  const out: string[] = ['', ' ', '\n\t ', ...FUZZ_PIECES];
  while (out.length < count) {
    const parts: string[] = [];
    const n = 1 + Math.floor(rand() * 12);
    for (let i = 0; i < n; i++) {
      const r = rand();
      if (r < 0.45) parts.push(pick(FUZZ_PIECES));
      else if (r < 0.75) {
        // random code points across planes, including unpaired surrogates
        let s = '';
        const len = 1 + Math.floor(rand() * 12);
        for (let j = 0; j < len; j++) {
          const plane = rand();
          const cp = plane < 0.5 ? 0x20 + Math.floor(rand() * 0x5f) : plane < 0.85 ? Math.floor(rand() * 0xffff) : 0x10000 + Math.floor(rand() * 0xfffff);
          s += cp <= 0xffff ? String.fromCharCode(cp) : String.fromCodePoint(cp);
        }
        parts.push(s);
      } else {
        // mixed-case / digit runs of varied length
        const len = 1 + Math.floor(rand() * 130);
        let s = '';
        for (let j = 0; j < len; j++) s += pick(['A', 'b', 'Z', 'q', '1', '0', 'é', 'X', 'y', '_']);
        parts.push(s);
      }
      parts.push(pick(spaces));
    }
    out.push(parts.join(''));
  }
  return out;
}

describe('WordPieceTokenizer (lean) vs @huggingface/tokenizers', function () {
  this.timeout(300_000);
  const { json, config } = readTokenizer();
  const library = new Tokenizer(JSON.parse(JSON.stringify(json)) as object, config);
  const lean = WordPieceTokenizer.tryCreate(json, config);

  it('accepts the shipped model', () => {
    assert.ok(lean, 'models/reporecall-code/tokenizer.json should take the lean path');
  });

  it('identical ids on >= 10k snippets of real code', () => {
    const snippets = realSnippets(10_000);
    let tokens = 0;
    let unks = 0;
    const unkId = library.token_to_id('[UNK]');
    for (const s of snippets) {
      const want = library.encode(s, { add_special_tokens: false }).ids;
      assert.deepStrictEqual(lean!.encode(s), want, `snippet ${JSON.stringify(s.slice(0, 200))}`);
      tokens += want.length;
      unks += want.filter((id) => id === unkId).length;
    }
    // The corpus must exercise the interesting paths, not only common words.
    assert.ok(tokens > 200_000, `only ${tokens} tokens compared`);
    assert.ok(unks > 0, 'no [UNK] in real code: unk handling untested');
  });

  it('identical ids on fuzzed strings (unicode, emoji, long words, digits, case runs, whitespace)', () => {
    for (const s of fuzzStrings(5000)) {
      assert.deepStrictEqual(lean!.encode(s), library.encode(s, { add_special_tokens: false }).ids, `fuzz ${JSON.stringify(s)}`);
    }
  });

  it('TextTokenizer truncates identically with either implementation', () => {
    for (const maxTokens of [1, 7, 64, 256]) {
      const viaLean = new TextTokenizer(json, config, 'tokenizer.json', maxTokens);
      const viaLib = new TextTokenizer(json, config, 'tokenizer.json', maxTokens, true);
      assert.strictEqual(viaLean.implementation, 'wordpiece');
      assert.strictEqual(viaLib.implementation, 'library');
      const texts = [...realSnippets(10_000).filter((_, i) => i % 20 === 0), ...fuzzStrings(300), 'x '.repeat(5000), 'ab'.repeat(3000)];
      for (const t of texts) {
        const a = viaLean.encode(t);
        const b = viaLib.encode(t);
        assert.deepStrictEqual(a.ids, b.ids, `maxTokens ${maxTokens}: ${JSON.stringify(t.slice(0, 100))}`);
        assert.deepStrictEqual(a.typeIds, b.typeIds);
        assert.ok(a.ids.length <= maxTokens);
      }
    }
  });

  it('unk handling and max_input_chars_per_word on a small vocab', () => {
    const small = {
      version: '1.0',
      added_tokens: [],
      normalizer: null,
      pre_tokenizer: { type: 'WhitespaceSplit' },
      post_processor: null,
      decoder: null,
      model: { type: 'WordPiece', unk_token: '<unk>', continuing_subword_prefix: '@@', max_input_chars_per_word: 5, vocab: { '<unk>': 0, a: 1, ab: 2, '@@b': 3, '@@c': 4, '😀': 5, '@@😀': 6 } },
    };
    const s = WordPieceTokenizer.tryCreate(small, {});
    assert.ok(s);
    const lib = new Tokenizer(small, {});
    for (const t of ['a ab abc abcd abbbb abbbbb ac ad 😀😀😀 😀😀😀😀😀😀 a😀 ab😀c x', 'abcbc\tabd', '']) {
      assert.deepStrictEqual(s.encode(t), lib.encode(t, { add_special_tokens: false }).ids, t);
    }
    // 'ad': '@@d' is missing, so the whole word is one unk; 6 code points exceed the limit of 5.
    assert.deepStrictEqual(s.encode('ad ab abbbbb'), [0, 2, 0]);
  });

  it('declines shapes it does not reproduce, and TextTokenizer falls back to the library', () => {
    const base = readTokenizer().json;
    const variants: Array<Record<string, unknown>> = [
      { ...base, normalizer: { type: 'Lowercase' } },
      { ...base, post_processor: { type: 'TemplateProcessing', single: [], pair: [], special_tokens: {} } },
      { ...base, added_tokens: [{ id: 0, content: '[UNK]', single_word: false, lstrip: false, rstrip: false, normalized: false, special: true }] },
      { ...base, pre_tokenizer: { type: 'BertPreTokenizer' } },
      { ...base, pre_tokenizer: { type: 'Split', pattern: { Regex: '\\s+' }, behavior: 'Removed', invert: false } },
      { ...base, model: { ...(base.model as object), type: 'BPE' } },
      { ...base, model: { ...(base.model as object), unk_token: '<missing>' } },
      { ...base, model: { ...(base.model as object), vocab: { '[UNK]': 0, a: 1.5 } } },
    ];
    for (const v of variants) assert.strictEqual(WordPieceTokenizer.tryCreate(v, {}), undefined, JSON.stringify(v.pre_tokenizer));
    assert.strictEqual(WordPieceTokenizer.tryCreate(base, { remove_space: true }), undefined);
    const fallback = new TextTokenizer(variants[0], {}, 'tokenizer.json', 32);
    assert.strictEqual(fallback.implementation, 'library');
    assert.ok(fallback.encode('Hello World').ids.length > 0);
  });

  it('OnnxEmbedder gives identical embeddings with either tokenizer', async () => {
    const viaLean = await OnnxEmbedder.load(MODEL_DIR);
    const viaLib = await OnnxEmbedder.load(MODEL_DIR, { libraryTokenizer: true });
    try {
      const sample = [...realSnippets(10_000).filter((_, i) => i % 100 === 0).slice(0, 150), ...fuzzStrings(50)];
      const a = await viaLean.embed(sample);
      const b = await viaLib.embed(sample);
      assert.strictEqual(a.length, sample.length);
      for (let i = 0; i < a.length; i++) assert.deepStrictEqual(Array.from(a[i]), Array.from(b[i]), `text ${i}`);
    } finally {
      await viaLean.dispose();
      await viaLib.dispose();
    }
  });
});
