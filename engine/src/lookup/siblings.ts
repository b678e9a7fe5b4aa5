// A definition's siblings for Find Related Code: definitions beside it (its directory) of the same
// kind whose declaration has the same shape (`export function xLink<TRouter extends AnyRouter>(`
// beside `export function yLink<TRouter ...>(`) or that the same files use. Lexical retrieval finds
// what mentions the name; the siblings share no word with it but are what a reader compares it with.
import * as path from 'path';
import { lexicalTerms } from '../lexical/tokenize';
import type { ChunkKind, RetrievedChunk } from '../types';

/** What siblingsOf needs from the index. */
export interface SiblingSource {
  /** Indexed files directly in `dir` ('' for the root). */
  filesIn(dir: string): string[];
  /** A file's chunks (kind, lines, name). */
  chunksOf(file: string): Array<{ startLine: number; endLine: number; kind: ChunkKind; name?: string }>;
  linesOf(file: string): string[];
  /** Files whose chunks hold `name`'s whole-identifier term. */
  filesMentioning(name: string): Set<string>;
}

export interface SiblingTarget {
  file: string;
  name: string;
  startLine: number;
  endLine: number;
}

/** A declaration this alike (Jaccard of its words, names left out) has the same shape. */
const SAME_SHAPE = 0.5;
/** A sibling used by this share of the files that use the name has the same callers. */
const SAME_CALLERS = 0.3;
/** Candidates (best by shape and name) whose callers are counted. */
const CALLER_CANDIDATES = 16;
const MAX_FILES = 400;
const HEADER_LINES = 3;
const CODE_KINDS = new Set<ChunkKind>(['function', 'method', 'class', 'class-header', 'type']);

/** The words of a chunk's declaration (its first code lines up to the body), its own name's words left out. */
function shapeOf(lines: readonly string[], start: number, end: number, name: string | undefined): Set<string> {
  const own = new Set(name ? lexicalTerms(name) : []);
  const out = new Set<string>();
  let taken = 0;
  for (let i = start; i <= end && taken < HEADER_LINES; i++) {
    const l = (lines[i] ?? '').trim();
    if (!l || /^(#|\/\/|\/\*|\*|@)/.test(l)) continue;
    taken++;
    for (const t of lexicalTerms(l)) if (!own.has(t)) out.add(t);
    if (/[{:]\s*$/.test(l)) break;
  }
  return out;
}

function jaccard(a: Set<string>, b: Set<string>): number {
  if (!a.size && !b.size) return 0;
  let shared = 0;
  for (const x of a) if (b.has(x)) shared++;
  return shared / (a.size + b.size - shared);
}

/** Up to `max` siblings of the definition, best first, as chunks with relation `sibling`. */
export function siblingsOf(target: SiblingTarget, src: SiblingSource, max: number): RetrievedChunk[] {
  if (max <= 0) return [];
  const own = src.chunksOf(target.file).find((c) => c.startLine <= target.startLine && target.startLine <= c.endLine && c.name !== undefined);
  const kind = own?.kind;
  if (!kind || !CODE_KINDS.has(kind)) return [];
  const targetShape = shapeOf(src.linesOf(target.file), own.startLine, own.endLine, target.name);
  const nameWords = new Set(lexicalTerms(target.name));
  const dir = path.posix.dirname(target.file);
  const candidates: Array<{ file: string; c: { startLine: number; endLine: number; kind: ChunkKind; name?: string }; shape: number; name: number }> = [];
  for (const file of src.filesIn(dir === '.' ? '' : dir).slice(0, MAX_FILES)) {
    const lines = src.linesOf(file);
    for (const c of src.chunksOf(file)) {
      if (!c.name || c.kind !== kind || c.name === target.name || c.name.endsWith(`.${target.name}`)) continue;
      const simple = c.name.slice(c.name.lastIndexOf('.') + 1);
      const words = lexicalTerms(simple);
      const name = words.length ? words.filter((w) => nameWords.has(w)).length / words.length : 0;
      candidates.push({ file, c, shape: jaccard(targetShape, shapeOf(lines, c.startLine, c.endLine, simple)), name });
    }
  }
  candidates.sort((a, b) => b.shape + b.name / 2 - (a.shape + a.name / 2) || (a.file < b.file ? -1 : a.file > b.file ? 1 : a.c.startLine - b.c.startLine));
  const users = src.filesMentioning(target.name);
  users.delete(target.file);
  const scored = candidates.slice(0, CALLER_CANDIDATES).map((x) => {
    let shared = 0;
    if (users.size) {
      const theirs = src.filesMentioning(x.c.name!.slice(x.c.name!.lastIndexOf('.') + 1));
      for (const f of users) if (theirs.has(f)) shared++;
    }
    return { ...x, callers: users.size ? shared / users.size : 0 };
  });
  return scored
    .filter((x) => x.shape >= SAME_SHAPE || x.callers >= SAME_CALLERS)
    .sort((a, b) => b.shape + b.callers + b.name / 2 - (a.shape + a.callers + a.name / 2))
    .slice(0, max)
    .map(({ file, c }) => ({
      file, startLine: c.startLine, endLine: c.endLine, kind: c.kind, name: c.name,
      text: src.linesOf(file).slice(c.startLine, c.endLine + 1).join('\n'), score: 0, signals: {},
      relation: { kind: 'sibling', line: c.startLine },
    }));
}
