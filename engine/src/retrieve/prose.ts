// A question in words ("where are expired sessions refreshed"), as an agent asks search_code, is
// not code: told apart by its shape, its lexical query is its content words (no stop words) with
// the inflections of each that the index holds (`refreshed` also finds `refresh`, `refreshes`).
import { lexicalTerms } from '../lexical/tokenize';

// The `stopword` package's English list (a maintained list, not our own); it ships no types.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- no type declarations to import against
const { eng: ENGLISH_STOP_WORDS } = require('stopword') as { eng: string[] };
// Porter2 (Snowball English) stemmer, the standard one; it ships no types.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- no type declarations to import against
const stem = require('wink-porter2-stemmer') as (word: string) => string;

const STOP = new Set(ENGLISH_STOP_WORDS.map((w) => w.toLowerCase()));

/** A plain word, optionally followed by punctuation (`sessions,`) or opened by a quote or bracket. */
const PLAIN_WORD = /^[("'`]?[A-Za-z][a-z]*(?:'[a-z]+)?[)"'`.,;:!?]*$/;
/** Doc-comment markup and links, which are neither words nor code: `{@link X}` (kept: X), `<p>`, `&lt;`, URLs. */
const INLINE_TAG = /\{@\w+\s*([^{}]*)\}/g;
const MARKUP = /<\/?[A-Za-z][^>]*>|&[a-z]+;|[a-z]+:\/\/\S+/g;
/** Marks code is full of and prose seldom has: statement ends, braces, assignments, arrows, calls. */
const CODE_MARKS = /[{};=<>]|\)\s*\(|=>|::|->/g;

/** Tuned on protocol N (test/bench/README.md); PARAMS.md has the runs. */
export const PROSE_TUNING = {
  /** At least this many plain words make a query prose... */
  minWords: 3,
  /** ...when they are at least this share of its whitespace-separated tokens. */
  minWordShare: 0.6,
  /** Look up each content word's inflections in the index (off: the words alone). */
  inflections: true,
  /** Each signal's fusion weight for a prose query, as a multiple of its weight for code. */
  weights: { dense: 1.5 } as Readonly<Record<string, number>>,
} as const;

/** The fusion weights for a prose query: `w` with PROSE_TUNING.weights' multiples applied. */
export function proseWeights(w: Readonly<Record<string, number>>): Record<string, number> {
  const out = { ...w };
  for (const [name, times] of Object.entries(PROSE_TUNING.weights)) if (name in out) out[name] *= times;
  return out;
}

/** Whether a query is a sentence in words rather than code (its shape: plain words, few code marks). */
export function isProse(query: string): boolean {
  const text = query.replace(INLINE_TAG, ' $1 ').replace(MARKUP, ' ');
  const tokens = text.trim().split(/\s+/).filter(Boolean);
  const words = tokens.filter((t) => PLAIN_WORD.test(t)).length;
  const marks = (text.match(CODE_MARKS) ?? []).length;
  return words >= PROSE_TUNING.minWords && words >= PROSE_TUNING.minWordShare * tokens.length && marks * 4 < words;
}

/** Endings tried on a word's stem for its inflections (Porter2 maps each back to the same stem). */
const ENDINGS = ['', 'e', 's', 'es', 'ed', 'd', 'ing', 'er', 'ers', 'ion', 'ions', 'ation', 'ations', 'ize', 'izes', 'ized', 'al', 'ally', 'ly', 'ment', 'ments', 'y', 'ity', 'ive', 'able'];

/** `word` and the other words with its stem among `known`'s (the index's terms), the word first. */
export function inflections(word: string, known: (term: string) => boolean): string[] {
  const s = stem(word);
  const out = new Set<string>([word]);
  // Porter2 ends some stems in `i` (`copi`: copy, copies) and does not double consonants (`run`, `running`).
  const candidates = [s, s + s.slice(-1)].flatMap((base) => ENDINGS.map((end) => base + end));
  if (s.endsWith('i')) candidates.push(s.slice(0, -1) + 'y');
  for (const w of candidates) if (!out.has(w) && w.length >= 3 && known(w) && stem(w) === s) out.add(w);
  return [...out];
}

/**
 * The concepts of a prose query, each as the terms that stand for it: its identifiers' sub-tokens as
 * for code (lexicalTerms), less English stop words, each content word with the inflections of it
 * that the index holds (`known`). The lexical signals search all of them; file coverage counts a
 * concept once whichever of its terms a file holds.
 */
export function proseConcepts(query: string, known: (term: string) => boolean): string[][] {
  const out = new Map<string, string[]>();
  for (const t of lexicalTerms(query)) {
    if (STOP.has(t) || out.has(t)) continue;
    out.set(t, PROSE_TUNING.inflections && /^[a-z]{3,}$/.test(t) ? inflections(t, known) : [t]);
  }
  return [...out.values()];
}
