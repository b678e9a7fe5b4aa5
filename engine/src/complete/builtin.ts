// The built-in completion source (no language model): if the lines just above the cursor also
// occur in a retrieved chunk, the line that follows them there is offered, re-indented to the
// cursor's indentation. When nothing matches closely enough it offers nothing rather than noise.
import type { CompletionResult } from '../api';
import type { EditorState, RetrievedChunk } from '../types';

const norm = (s: string) => s.trim().replace(/\s+/g, ' ');
const indentOf = (s: string) => s.match(/^\s*/)![0];

/** How many of the lines before `i` in `lines` equal the editor's lines before the cursor. */
function matchDepth(lines: string[], i: number, before: string[]): number {
  let d = 0;
  while (d < before.length && i - 1 - d >= 0 && norm(lines[i - 1 - d]) === before[before.length - 1 - d]) d++;
  return d;
}

/** Lines of the current file above the window being matched, as a last-resort source. */
function inFileSource(state: EditorState, prefixLines: string[]): RetrievedChunk | undefined {
  const upTo = prefixLines.length - 3;
  if (upTo < 2) return undefined;
  return { file: state.file, startLine: 0, endLine: upTo - 1, kind: 'window', text: prefixLines.slice(0, upTo).join('\n'), score: 0, signals: { infile: 1 } };
}

/**
 * Completes the cursor's line from `hits` (retrieved chunks, best first) and, after them, from the
 * current file's own earlier lines. With `hits` empty this is the no-retrieval baseline.
 */
export function completeFromContext(state: EditorState, retrieved: RetrievedChunk[]): CompletionResult | null {
  const prefixLines = state.prefix.split('\n');
  const current = prefixLines.pop() ?? ''; // text typed on the cursor's line
  const before = prefixLines.map(norm).filter((l) => l.length > 0).slice(-3);
  if (!before.length) return null;
  const own = inFileSource(state, prefixLines);
  const hits = own ? [...retrieved, own] : retrieved;
  const typed = norm(current);
  let best: { text: string; depth: number; hit: RetrievedChunk; rank: number } | undefined;
  hits.forEach((hit, rank) => {
    const lines = hit.text.split('\n').filter((l) => norm(l).length > 0);
    for (let i = 1; i < lines.length; i++) {
      const depth = matchDepth(lines, i, before);
      if (depth === 0) continue;
      const candidate = lines[i];
      if (typed && !norm(candidate).startsWith(typed)) continue;
      if (!best || depth > best.depth) best = { text: candidate, depth, hit, rank };
    }
  });
  // One matching line is weak evidence unless it is long and specific.
  if (!best || (best.depth < 2 && before[before.length - 1].length < 20)) return null;
  const body = norm(best.text);
  // At the start of a line the candidate's own indentation is kept; mid-line only the rest is added.
  const text = current.length ? body.slice(typed.length) : indentOf(best.text) + body;
  if (!text.trim()) return null;
  return {
    text,
    source: { file: best.hit.file, startLine: best.hit.startLine, endLine: best.hit.endLine },
    confidence: Math.min(1, best.depth / 3) * (1 / (1 + best.rank * 0.2)),
  };
}
