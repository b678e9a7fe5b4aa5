// Packing retrieved chunks into a context budget: a long chunk is cut to the window of lines that
// shares most with the query (behind its first line, the signature), and `compact` drops blank
// and comment-only lines, so a fixed token budget carries more of the code the next line needs.
import { lexicalTerms } from '../lexical/tokenize';

export interface ExcerptOptions {
  /** At most this many lines per chunk. */
  maxLines: number;
  /** Drop blank and comment-only lines. */
  compact: boolean;
  /** 'best': the declaration plus the window that shares most with the query (default);
   *  'head': the first lines (how the engine packed context before the query stages). */
  mode?: 'best' | 'head';
  /**
   * Names already in the context (the editor window, chunks packed before): a line after the first
   * whose identifiers are all in it is dropped, and the kept lines' names join it. The budget then
   * carries names the model has not seen instead of lines repeating them (issue 18 part 3).
   */
  seen?: Set<string>;
}

const COMMENT_ONLY = /^\s*(#|\/\/|\*|\/\*|\*\/)/;

export function excerpt(lines: string[], queryTerms: ReadonlySet<string>, opts: ExcerptOptions): string {
  const kept = opts.compact ? lines.filter((l, i) => i === 0 || (l.trim() !== '' && !COMMENT_ONLY.test(l))) : lines;
  if (opts.seen) return remember(cut(kept.filter((l, i) => i === 0 || addsName(l, opts.seen!)), queryTerms, opts), opts.seen);
  return cut(kept, queryTerms, opts);
}

/**
 * The names of the last `lines` lines before the cursor: what the model surely sees next to the
 * cursor (protocol C counts a name as needing retrieval when it is not there). Names further up the
 * prefix stay worth carrying: the prompt's prefix may be cut before them.
 */
export function namesOnScreen(prefix: string, lines = 20): Set<string> {
  const all = prefix.split('\n');
  return new Set(all.slice(Math.max(0, all.length - lines - 1)).join('\n').match(IDENT) ?? []);
}

/** Whether `line` names something `seen` does not hold (the freshNames rule for keeping a line). */
export function addsName(line: string, seen: ReadonlySet<string>): boolean {
  return (line.match(IDENT) ?? []).some((t) => !seen.has(t));
}

/** Adds the names of `text` to `seen`; returns `text`. */
export function remember(text: string, seen: Set<string>): string {
  for (const t of text.match(IDENT) ?? []) seen.add(t);
  return text;
}

function cut(kept: string[], queryTerms: ReadonlySet<string>, opts: ExcerptOptions): string {
  if (kept.length <= opts.maxLines) return kept.join('\n');
  if (opts.mode === 'head') return kept.slice(0, opts.maxLines).join('\n');
  // Best window by query-term hits per line, keeping the first line (the declaration).
  const hits = kept.map((l) => lexicalTerms(l).filter((t) => queryTerms.has(t)).length);
  const width = opts.maxLines - 1;
  let best = 1, sum = 0, bestSum = -1;
  for (let i = 1; i < kept.length; i++) {
    sum += hits[i];
    if (i - width >= 1) sum -= hits[i - width];
    const start = Math.max(1, i - width + 1);
    if (i >= width && sum > bestSum) { bestSum = sum; best = start; }
  }
  if (bestSum <= 0) best = 1;
  kept = [kept[0], ...kept.slice(best, best + width)];
  return kept.join('\n');
}

const IDENT = /[A-Za-z_$][A-Za-z0-9_$]*/g;
const identSet = (text: string) => new Set(text.match(IDENT) ?? []);

/**
 * Maximal marginal relevance over identifiers: repeatedly takes the candidate whose rank-based
 * relevance, scaled by the share of its identifiers that neither the editor window nor an earlier
 * pick already shows, is highest. Context the model already sees costs budget and adds nothing.
 */
export function selectNovel<T extends { text: string }>(ranked: T[], window: string, weight: number, k: number): T[] {
  const seen = identSet(window);
  const ids = ranked.map((c) => identSet(c.text));
  const left = ranked.map((_, i) => i);
  const out: T[] = [];
  while (out.length < k && left.length) {
    let best = 0, bestScore = -Infinity;
    left.forEach((i, j) => {
      let fresh = 0;
      for (const t of ids[i]) if (!seen.has(t)) fresh++;
      const share = ids[i].size ? fresh / ids[i].size : 0;
      const score = (1 / (i + 10)) * (1 - weight + weight * share);
      if (score > bestScore) { bestScore = score; best = j; }
    });
    const [i] = left.splice(best, 1);
    out.push(ranked[i]);
    for (const t of ids[i]) seen.add(t);
  }
  return out;
}
