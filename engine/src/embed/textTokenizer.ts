// Turns texts into model input ids with @huggingface/tokenizers (pure JS, offline), truncating
// long texts while keeping the special tokens the post-processor adds around them ([CLS] … [SEP]).
import { Tokenizer } from '@huggingface/tokenizers';
import { ModelLoadError } from './modelFiles';

/** Characters per token assumed when pre-cutting long texts (real code averages 2.5-4). */
const CHARS_PER_TOKEN_BOUND = 8;

export interface TokenizedText {
  ids: number[];
  /** Segment ids when the tokenizer produces them (BERT-style), else undefined (model gets zeros). */
  typeIds?: number[];
}

export class TextTokenizer {
  private readonly tokenizer: Tokenizer;
  /** Number of special tokens the post-processor puts before / after the text. */
  private readonly prefixLen: number;
  private readonly suffixLen: number;

  constructor(tokenizerJson: object, tokenizerConfig: object, tokenizerPath: string, readonly maxTokens: number) {
    try {
      this.tokenizer = new Tokenizer(tokenizerJson, tokenizerConfig);
    } catch (err) {
      throw new ModelLoadError(`tokenizer ${tokenizerPath} could not be loaded: ${(err as Error).message}`);
    }
    // Probe with a word: with specials = prefix + word + suffix, without = word.
    const bare = this.tokenizer.encode('a', { add_special_tokens: false }).ids;
    const full = this.tokenizer.encode('a', { add_special_tokens: true }).ids;
    const at = indexOfRun(full, bare);
    this.prefixLen = at >= 0 ? at : 0;
    this.suffixLen = at >= 0 ? full.length - at - bare.length : 0;
    if (maxTokens < this.prefixLen + this.suffixLen + 1) {
      throw new ModelLoadError(`maxTokens ${maxTokens} leaves no room for text next to ${this.prefixLen + this.suffixLen} special tokens`);
    }
  }

  encode(text: string): TokenizedText {
    // Tokenizing a whole long text only to cut it is the dominant cost, so tokenize a character
    // prefix first and fall back to the full text when that prefix yields too few tokens.
    const cut = this.maxTokens * CHARS_PER_TOKEN_BOUND;
    let enc = this.tokenizer.encode(text.length > cut ? text.slice(0, cut) : text, { add_special_tokens: true, return_token_type_ids: true });
    // +2 so the token at the cut (possibly split differently) lies beyond what we keep.
    if (text.length > cut && enc.ids.length < this.maxTokens + 2) {
      enc = this.tokenizer.encode(text, { add_special_tokens: true, return_token_type_ids: true });
    }
    let ids = enc.ids;
    let typeIds: number[] | undefined = enc.token_type_ids;
    if (ids.length > this.maxTokens) {
      const head = this.maxTokens - this.suffixLen;
      ids = ids.slice(0, head).concat(ids.slice(ids.length - this.suffixLen));
      if (typeIds) typeIds = typeIds.slice(0, head).concat(typeIds.slice(typeIds.length - this.suffixLen));
    }
    return { ids, typeIds };
  }
}

function indexOfRun(haystack: number[], needle: number[]): number {
  outer: for (let i = 0; i + needle.length <= haystack.length; i++) {
    for (let j = 0; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}
