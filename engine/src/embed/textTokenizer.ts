// Turns texts into model input ids, truncating long texts while keeping the special tokens the
// post-processor adds around them ([CLS] … [SEP]). Plain WordPiece tokenizers (the shipped model)
// use the lean WordPieceTokenizer (~40 MB less RSS); any other tokenizer.json uses
// @huggingface/tokenizers (pure JS, offline).
import { Tokenizer } from '@huggingface/tokenizers';
import { ModelLoadError } from './modelFiles';
import { WordPieceTokenizer } from './wordPieceTokenizer';

/** Characters per token assumed when pre-cutting long texts (real code averages 2.5-4). */
const CHARS_PER_TOKEN_BOUND = 8;

export interface TokenizedText {
  ids: number[];
  /** Segment ids when the tokenizer produces them (BERT-style), else undefined (model gets zeros). */
  typeIds?: number[];
}

/** The tokenizer behind TextTokenizer: ids (and segment ids) with or without special tokens. */
interface IdEncoder {
  encode(text: string, addSpecialTokens: boolean): { ids: number[]; typeIds?: number[] };
}

function libraryEncoder(tokenizer: Tokenizer): IdEncoder {
  return {
    encode: (text, addSpecialTokens) => {
      const enc = tokenizer.encode(text, { add_special_tokens: addSpecialTokens, return_token_type_ids: true });
      return { ids: enc.ids, typeIds: enc.token_type_ids };
    },
  };
}

/** WordPieceTokenizer only accepts shapes without a post-processor, so there are no specials. */
function leanEncoder(tokenizer: WordPieceTokenizer): IdEncoder {
  return { encode: (text) => ({ ids: tokenizer.encode(text) }) };
}

export class TextTokenizer {
  private readonly tokenizer: IdEncoder;
  /** Which implementation tokenizes: 'wordpiece' (lean) or 'library' (@huggingface/tokenizers). */
  readonly implementation: 'wordpiece' | 'library';
  /** Number of special tokens the post-processor puts before / after the text. */
  private readonly prefixLen: number;
  private readonly suffixLen: number;

  /** `useLibrary` forces @huggingface/tokenizers (parity tests compare the two). */
  constructor(tokenizerJson: object, tokenizerConfig: object, tokenizerPath: string, readonly maxTokens: number, useLibrary = false) {
    try {
      const lean = useLibrary ? undefined : WordPieceTokenizer.tryCreate(tokenizerJson, tokenizerConfig);
      this.tokenizer = lean ? leanEncoder(lean) : libraryEncoder(new Tokenizer(tokenizerJson, tokenizerConfig));
      this.implementation = lean ? 'wordpiece' : 'library';
    } catch (err) {
      throw new ModelLoadError(`tokenizer ${tokenizerPath} could not be loaded: ${(err as Error).message}`);
    }
    // Probe with a word: with specials = prefix + word + suffix, without = word.
    const bare = this.tokenizer.encode('a', false).ids;
    const full = this.tokenizer.encode('a', true).ids;
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
    let enc = this.tokenizer.encode(text.length > cut ? text.slice(0, cut) : text, true);
    // +2 so the token at the cut (possibly split differently) lies beyond what we keep.
    if (text.length > cut && enc.ids.length < this.maxTokens + 2) {
      enc = this.tokenizer.encode(text, true);
    }
    let ids = enc.ids;
    let typeIds: number[] | undefined = enc.typeIds;
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
