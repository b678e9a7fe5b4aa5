// Rows of Find Related Code from retrieved chunks: the reason each is related (from the syntax of
// the name's occurrences where the engine read it), definitions first, then code that calls, uses
// or imports the name, then the definition's siblings, then look-alikes; code before tests,
// configuration and data files, and docs (each keeps its rank when the user is in one); copies and
// look-alike rows folded. No `vscode` import: unit-tested.
import type { SymbolDefinition, SymbolInfo } from '../../../engine/src/public';
import type { RetrievedChunk } from '../../../engine/src/public';
import { copyPreference, groupCopies, isDataFile, isDocFile, isMarkedCopy, isTestFile } from './copies';
import { namePatterns, subWords } from './namePatterns';

export type RelatedReason = 'definition' | 'overrides it' | 'calls it' | 'uses it' | 'imports it' | 'sibling' | 'mentions it' | 'similar code';

export interface RelatedRow {
  chunk: RetrievedChunk;
  reason: RelatedReason;
  /** Near-duplicates of `chunk`, collapsed into its row. */
  copies: RetrievedChunk[];
  /** The line or two the row shows (distinct from every row above it). */
  preview?: string;
}

const REASON_TIER: Record<RelatedReason, number> = {
  definition: 0, 'overrides it': 1, 'calls it': 1, 'uses it': 1, 'imports it': 1, sibling: 2, 'mentions it': 3, 'similar code': 3,
};

/** Order of rows: definitions, then by reason; code, then tests, then configuration and data, then docs (each keeps its place when the user is in one). */
function tier(row: RelatedRow, rel: string): number {
  if (row.reason === 'definition') return 0;
  const reason = REASON_TIER[row.reason];
  const file = row.chunk.file;
  if (isDocFile(file)) return isDocFile(rel) ? reason : 30 + reason;
  if (isDataFile(file)) return isDataFile(rel) ? reason : 20 + reason;
  if (isTestFile(file)) return isTestFile(rel) ? reason : 10 + reason;
  return reason;
}

/**
 * The definition the hover shows as "defines": never for a name the engine left unresolved
 * (`candidates`); not the hovered one itself; one without a `Copied from` note (the original the
 * copies come from), this file's first; else this file's copy (what a call here runs).
 */
export function pickDefinition(symbol: SymbolInfo, rel: string): SymbolDefinition | undefined {
  if (symbol.resolution === 'candidates' || symbol.resolution === 'external') return undefined;
  const candidates = symbol.definitions.filter((d) => !(symbol.role === 'definition' && d.file === rel && d.declLine === symbol.line));
  return candidates.find((d) => !d.copyOf && d.file === rel) ?? candidates.find((d) => !d.copyOf) ?? candidates.find((d) => d.file === rel) ?? candidates[0];
}

const RELATION_REASON: Record<NonNullable<RetrievedChunk['relation']>['kind'], RelatedReason> = {
  defines: 'definition', overrides: 'overrides it', calls: 'calls it', uses: 'uses it', imports: 'imports it', mentions: 'mentions it', sibling: 'sibling',
};

export function reasonFor(c: RetrievedChunk, symbol: SymbolInfo | null): RelatedReason {
  if (!symbol) return 'similar code';
  if (symbol.definitions.some((d) => d.file === c.file && d.declLine >= c.startLine && d.declLine <= c.endLine)) return 'definition';
  // The engine read the chunk's occurrences of the name: their syntax says what the chunk does with it.
  if (c.relation) return RELATION_REASON[c.relation.kind];
  // A chunk that declares the name (the chunker named it so, or a line declares it) defines it, whatever calls it holds.
  const { call, word, declares } = namePatterns(symbol.name);
  if (c.name === symbol.name || c.name?.endsWith(`.${symbol.name}`) || c.text.split('\n').some((l) => declares.test(l))) return 'definition';
  if (call.test(c.text)) return 'calls it';
  if (word.test(c.text)) return 'uses it';
  return 'similar code';
}

/**
 * Orders and collapses retrieved chunks. On a name, code that neither calls nor uses it counts as
 * related only when it shares one of the name's longer sub-words. Among copies the row shows the one
 * this file's call resolves to, else the nearest by path, else one outside examples and tests.
 */
export function relatedRows(chunks: RetrievedChunk[], symbol: SymbolInfo | null, rel: string, max: number): RelatedRow[] {
  const words = symbol ? subWords(symbol.name) : [];
  const kept = symbol
    ? chunks.filter((c) => !['similar code', 'mentions it'].includes(reasonFor(c, symbol)) || (words.length > 0 && words.some((w) => c.text.toLowerCase().includes(w))))
    : chunks;
  const resolved = symbol && symbol.resolution !== 'candidates' && symbol.resolution !== 'external' ? symbol.definitions[0] : undefined;
  const groups = groupCopies(kept, (c) => c.text, copyPreference(rel, resolved));
  const rows: RelatedRow[] = groups.map((g) => {
    // A group holding the definition shows it (the resolved one first); the others are its copies.
    const all = [g.first, ...g.copies];
    const def = reasonFor(g.first, symbol) === 'definition' ? g.first : all.find((c) => reasonFor(c, symbol) === 'definition' && !isMarkedCopy(c.text));
    const first = def ?? g.first;
    return { chunk: first, reason: reasonFor(first, symbol), copies: all.filter((c) => c !== first) };
  });
  const ordered = rows.map((r, i) => ({ r, i })).sort((a, b) => tier(a.r, rel) - tier(b.r, rel) || a.i - b.i).map(({ r }) => r);
  return distinctRows(ordered, symbol?.name).slice(0, max);
}

/** Reasons whose row previews the line that holds the name. */
export const USES = new Set<RelatedReason>(['calls it', 'uses it', 'imports it', 'overrides it']);

const isComment = (l: string): boolean => /^(#|\/\/|\/\*|\*)/.test(l);

/**
 * Rows that would look the same (same name, reason and preview: overloads, tests built alike) are
 * told apart by the first line the earlier row's code lacks, or folded into it as copies when no
 * line differs, so the list never shows one row twice.
 */
export function distinctRows(rows: RelatedRow[], name?: string): RelatedRow[] {
  const out: RelatedRow[] = [];
  const shown = new Map<string, RelatedRow>();
  // A row's file is only its location: two rows of different files with the same line look alike.
  const look = (r: RelatedRow): string => `${r.chunk.name ?? ''}\0${r.reason}\0${r.preview}`;
  for (const row of rows) {
    row.preview = relationLine(row) ?? preview(row.chunk.text, USES.has(row.reason) ? name : undefined);
    const twin = shown.get(look(row));
    if (twin) {
      const theirs = new Set(twin.chunk.text.split('\n').map((l) => l.trim()));
      const own = row.chunk.text.split('\n').map((l) => l.trim()).find((l) => l && !isComment(l) && !theirs.has(l));
      if (own) row.preview = `… ${own.slice(0, 160)}`;
      if (!own || shown.has(look(row))) {
        (shown.get(look(row)) ?? twin).copies.push(row.chunk, ...row.copies);
        continue;
      }
    }
    shown.set(look(row), row);
    out.push(row);
  }
  return out;
}

export function preview(text: string, name?: string): string {
  const lines = text.split('\n').map((l) => l.trim()).filter((l) => l.length > 0 && !/^(#|\/\/)\s*copied from/i.test(l));
  // A row that calls or uses the name previews the line that does.
  const word = name ? namePatterns(name).word : undefined;
  const at = word ? lines.findIndex((l) => word.test(l) && !/^(#|\/\/|\*|import\b|from\s)/.test(l)) : -1;
  return (at > 0 ? lines.slice(at, at + 1) : lines.slice(0, 2)).join(' ⏎ ').slice(0, 160);
}

/** The line the engine found the name on, for a row that calls, uses, imports or overrides it. */
function relationLine(row: RelatedRow): string | undefined {
  const r = row.chunk.relation;
  if (!r || !USES.has(row.reason)) return undefined;
  const line = row.chunk.text.split('\n')[r.line - row.chunk.startLine]?.trim();
  return line ? line.slice(0, 160) : undefined;
}
