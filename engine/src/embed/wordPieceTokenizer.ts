// A lean WordPiece tokenizer for tokenizer.json files of the plain shape the shipped model uses
// (WordPiece model, no normalizer, no post-processor, no added tokens). @huggingface/tokenizers
// keeps the whole parsed tokenizer.json plus several copies of the vocab alive (~40 MB of RSS for
// an 80k vocab); this keeps one packed VocabTable. Ids are identical to @huggingface/tokenizers 0.2 on the shapes
// it accepts (parity test: test/unit/wordPieceTokenizer.test.ts); anything else returns undefined
// from `tryCreate` and the caller uses the library.
import { SequencePreTokenizer, SplitPreTokenizer, WhitespaceSplitPreTokenizer } from '@huggingface/tokenizers';
import { VocabTable } from './vocabTable';

/** Pre-tokenizer types whose library implementation we reuse (they hold no vocab). */
type PreTokenize = (text: string) => string[];

interface PreTokenizerConfig {
  type?: unknown;
  pretokenizers?: unknown;
  behavior?: unknown;
  invert?: unknown;
  pattern?: { Regex?: unknown; String?: unknown };
}

/**
 * Only WhitespaceSplit and Split(Regex, Isolated, not inverted), alone or in a Sequence: the shapes
 * whose library behaviour is read and mirrored exactly (the library's own classes do the
 * splitting, so regex dialect rewriting is the library's).
 */
function isSupportedPreTokenizer(cfg: unknown): boolean {
  if (!cfg || typeof cfg !== 'object') return false;
  const c = cfg as PreTokenizerConfig;
  if (c.type === 'WhitespaceSplit') return true;
  if (c.type === 'Split') {
    return c.behavior === 'Isolated' && c.invert === false && typeof c.pattern?.Regex === 'string';
  }
  if (c.type === 'Sequence') {
    return Array.isArray(c.pretokenizers) && c.pretokenizers.every((p) => isSupportedPreTokenizer(p) && (p as PreTokenizerConfig).type !== 'Sequence');
  }
  return false;
}

function buildPreTokenizer(cfg: PreTokenizerConfig): PreTokenize {
  // The library classes are typed loosely; each takes its JSON config and exposes pre_tokenize.
  type LibPreTokenizer = { pre_tokenize(text: string | string[]): string[] };
  type LibCtor = new (config: object) => LibPreTokenizer;
  const ctor = (cfg.type === 'Sequence' ? SequencePreTokenizer : cfg.type === 'Split' ? SplitPreTokenizer : WhitespaceSplitPreTokenizer) as unknown as LibCtor;
  // Copy the config so nothing here references the parsed tokenizer.json.
  const lib = new ctor(JSON.parse(JSON.stringify(cfg)) as object);
  return (text) => lib.pre_tokenize(text);
}

export class WordPieceTokenizer {
  private constructor(
    private readonly vocab: VocabTable,
    private readonly unkId: number,
    private readonly prefix: string,
    /** Words longer than this many code points become the unknown token whole. */
    private readonly maxInputCharsPerWord: number,
    private readonly preTokenize: PreTokenize | undefined,
  ) {}

  /**
   * A lean tokenizer for `tokenizerJson`, or undefined when its shape is not one this class
   * reproduces exactly. `tokenizerConfig` (tokenizer_config.json) flags that change the library's
   * text handling also make it decline.
   */
  static tryCreate(tokenizerJson: object, tokenizerConfig: object): WordPieceTokenizer | undefined {
    const t = tokenizerJson as Record<string, unknown>;
    const cfg = tokenizerConfig as Record<string, unknown>;
    const model = t.model as Record<string, unknown> | undefined;
    if (!model || model.type !== 'WordPiece') return undefined;
    if (t.normalizer !== null || t.post_processor !== null) return undefined;
    if (!Array.isArray(t.added_tokens) || t.added_tokens.length > 0) return undefined;
    if (cfg.remove_space === true || cfg.do_lowercase_and_remove_accent === true) return undefined;
    if (model.fuse_unk === true) return undefined;
    if (typeof model.continuing_subword_prefix !== 'string' || typeof model.unk_token !== 'string') return undefined;
    const maxChars = model.max_input_chars_per_word ?? 100;
    if (typeof maxChars !== 'number') return undefined;
    if (t.pre_tokenizer !== null && !isSupportedPreTokenizer(t.pre_tokenizer)) return undefined;
    const rawVocab = model.vocab;
    if (!rawVocab || typeof rawVocab !== 'object' || Array.isArray(rawVocab)) return undefined;

    const vocab = VocabTable.fromObject(rawVocab as Record<string, unknown>);
    if (!vocab) return undefined;
    const unkId = vocab.get('', model.unk_token, 0, model.unk_token.length);
    // Without [UNK] in the vocab the library yields undefined ids; leave that oddity to it.
    if (unkId === undefined) return undefined;
    const preTokenize = t.pre_tokenizer === null ? undefined : buildPreTokenizer(t.pre_tokenizer as PreTokenizerConfig);
    return new WordPieceTokenizer(vocab, unkId, model.continuing_subword_prefix, maxChars, preTokenize);
  }

  /** Token ids of `text` (no special tokens: this shape has no post-processor). */
  encode(text: string): number[] {
    const ids: number[] = [];
    if (text.length === 0) return ids;
    const words = this.preTokenize ? this.preTokenize(text) : [text];
    for (const word of words) this.encodeWord(word, ids);
    return ids;
  }

  /** Greedy longest-match-first WordPiece over code points, as the library does. */
  private encodeWord(word: string, out: number[]): void {
    // UTF-16 offsets of each code point boundary, so substrings never split a surrogate pair.
    const bounds: number[] = [0];
    for (let i = 0; i < word.length;) {
      const cp = word.codePointAt(i)!;
      i += cp > 0xffff ? 2 : 1;
      bounds.push(i);
    }
    const chars = bounds.length - 1;
    if (chars > this.maxInputCharsPerWord) {
      out.push(this.unkId);
      return;
    }
    const mark = out.length;
    let start = 0;
    while (start < chars) {
      let end = chars;
      let found: number | undefined;
      while (start < end) {
        found = this.vocab.get(start > 0 ? this.prefix : '', word, bounds[start], bounds[end]);
        if (found !== undefined) break;
        end--;
      }
      if (found === undefined) {
        out.length = mark;
        out.push(this.unkId);
        return;
      }
      out.push(found);
      start = end;
    }
  }
}
