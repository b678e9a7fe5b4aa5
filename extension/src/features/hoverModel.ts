// The hover's content as data (vscode-free, unit-tested): the definition shown and where it comes
// from, its copies, and the distinct places that call, use or resemble the name, each with why.
import type { RetrievedChunk, SymbolDefinition, SymbolInfo } from '../../../engine/src/public';
import { copyPreference, groupCopies, isDocFile } from './copies';
import type { DefinitionSource } from './definitionChoice';
import { namePatterns, subWords } from './namePatterns';
import { pickDefinition } from './relatedRows';

/** Characters of a usage line shown in the hover. */
const PREVIEW_CHARS = 48;
/** Chunk kinds that can resemble a definition (not imports or grouped top-level code). */
const RESEMBLING_KINDS = new Set(['function', 'method', 'class', 'class-header', 'type']);

export type UsageReason = 'overrides it' | 'calls it' | 'uses it' | 'imports it' | 'similar code';

export interface HoverUsage {
  file: string;
  /** The line shown (0-based): where the name appears, else the chunk's first line. */
  line: number;
  reason: UsageReason;
  preview: string;
  copies: number;
}

export interface HoverModel {
  symbol: SymbolInfo;
  /** The definition shown, if the index has one (other definitions are counted as copies). */
  definition?: SymbolDefinition;
  /** The hovered name is this definition's own name. */
  definedHere: boolean;
  otherDefinitions: number;
  usages: HoverUsage[];
  /** Where the definition shown comes from (the language server, RepoRecall's resolver, the name alone). */
  source?: DefinitionSource;
}

/** The syntax's relations as hover reasons; a declaration is no usage, a mention in text none either. */
const RELATION_USAGE: Partial<Record<NonNullable<RetrievedChunk['relation']>['kind'], UsageReason>> = {
  overrides: 'overrides it', calls: 'calls it', uses: 'uses it', imports: 'imports it',
};

/** Distinct places that call, use or resemble the name, best first, copies collapsed. */
export function usagesOf(symbol: SymbolInfo, rel: string, cursorLine: number, chunks: RetrievedChunk[], max: number): HoverUsage[] {
  const { word, call, declares } = namePatterns(symbol.name);
  const isDefinition = (c: RetrievedChunk): boolean =>
    symbol.definitions.some((d) => d.file === c.file && d.declLine >= c.startLine && d.declLine <= c.endLine) ||
    c.relation?.kind === 'defines' || (!c.relation && (c.name === symbol.name || (c.name?.endsWith(`.${symbol.name}`) ?? false)));
  const candidates = chunks.filter((c) =>
    !(c.file === rel && c.startLine <= cursorLine && cursorLine <= c.endLine) && !isDefinition(c) && !isDocFile(c.file));
  const resolved = symbol.resolution === 'defines' ? symbol.definitions[0] : undefined;
  const groups = groupCopies(candidates, (c) => c.text, copyPreference(rel, resolved));
  // Code "resembles" the name when it shares one of its longer sub-words (timesteps, Hull, ...).
  const parts = subWords(symbol.name);
  const comment = /^\s*(#|\/\/|\*|\/\*)/;
  const importLine = /^\s*(import\b|from\s+\S+\s+import\b|export\s+\{.*\}\s+from\b|use\s|#include\b|const\s+.*=\s*require\()/;
  const out: HoverUsage[] = [];
  for (const g of groups) {
    const c = g.first;
    const lines = c.text.split('\n');
    let reason: UsageReason | undefined;
    let at = -1;
    const related = c.relation && RELATION_USAGE[c.relation.kind];
    if (related) {
      // The engine read the occurrence's syntax node: what it does with the name, on its line.
      reason = related;
      at = Math.max(0, c.relation!.line - c.startLine);
    } else if (!c.relation) {
      // No syntax for this file (configuration, an unparsed language): the lines' text decides.
      reason = 'calls it';
      at = lines.findIndex((l) => call.test(l) && !comment.test(l) && !importLine.test(l) && !declares.test(l));
      if (at < 0) {
        reason = 'uses it';
        at = lines.findIndex((l) => word.test(l) && !comment.test(l) && !importLine.test(l) && !declares.test(l));
      }
      if (at < 0) {
        reason = 'imports it';
        at = lines.findIndex((l) => word.test(l) && importLine.test(l));
      }
    }
    if (at < 0 || !reason) {
      const lower = c.text.toLowerCase();
      if (!RESEMBLING_KINDS.has(c.kind) || !parts.some((w) => lower.includes(w))) continue;
      reason = 'similar code';
      at = Math.max(0, lines.findIndex((l) => l.trim() && !comment.test(l) && !l.trim().startsWith('@')));
    }
    const preview = (lines[at] ?? '').trim();
    out.push({ file: c.file, line: c.startLine + at, reason, preview: preview.length > PREVIEW_CHARS ? `${preview.slice(0, PREVIEW_CHARS - 1)}…` : preview, copies: g.copies.length });
  }
  // Places that call or use the name before imports and code that merely resembles it.
  const order: Record<UsageReason, number> = { 'overrides it': 0, 'calls it': 0, 'uses it': 1, 'imports it': 2, 'similar code': 3 };
  return out.map((u, i) => ({ u, i })).sort((a, b) => order[a.u.reason] - order[b.u.reason] || a.i - b.i).map(({ u }) => u).slice(0, max);
}

export function buildHoverModel(symbol: SymbolInfo, rel: string, cursorLine: number, chunks: RetrievedChunk[], max: number, source?: DefinitionSource): HoverModel {
  const definition = pickDefinition(symbol, rel);
  const definedHere = symbol.role === 'definition';
  // Copies have the shown definition's normalised body; same-named code elsewhere is no copy.
  const shown = definition ?? (definedHere ? symbol.definitions.find((d) => d.file === rel && d.declLine <= symbol.line && symbol.line <= d.endLine) : undefined);
  const sameBody = shown?.bodyKey ? symbol.definitions.filter((d) => d !== shown && d.bodyKey === shown.bodyKey).length : 0;
  return {
    symbol,
    definition,
    definedHere,
    otherDefinitions: symbol.resolution === 'defines' ? symbol.copies ?? 0 : sameBody,
    usages: usagesOf(symbol, rel, cursorLine, chunks, max),
    ...(definition && source ? { source } : {}),
  };
}
