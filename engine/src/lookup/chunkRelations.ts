// Each retrieved chunk's relation to a name (hover and Find Related Code rows), from the syntax of
// its occurrences (relations.ts): kept per chunk text and name, so a later request that finds the
// same chunk parses nothing.
import type { LoadedGrammar } from '../chunk/grammar';
import type { ResolvedDef } from '../resolve/resolver';
import type { ChunkRelation } from '../types';
import { RecentMap } from '../util/recentMap';
import { occurrencesIn, strongest, type Occurrence } from './relations';
import { sliceLines, wordPattern } from './symbolSyntax';

/** Chunks' occurrences of a name (grammar, name, first line, text). */
const OCCURRENCES = new RecentMap<string, Occurrence[]>(1024);

/** The name labelled and, when resolved (`defines`), its definition first (symbols.ts SymbolInfo). */
export interface LabelledName {
  name: string;
  resolution: string;
  definitions: ReadonlyArray<{ file: string; startLine: number; endLine: number }>;
}

export interface RelationSource {
  textOf(file: string): string | undefined;
  grammarFor(file: string, text: string): Promise<LoadedGrammar | undefined>;
  /** The definition a method declared on `line` of `file` overrides (the resolver's), where names resolve. */
  overridden?(file: string, line: number, name: string): Promise<ResolvedDef | undefined>;
}

/** Each chunk's relation to `symbol`'s name; none for a chunk that lacks the word. */
export async function chunkRelations(symbol: LabelledName, chunks: ReadonlyArray<{ file: string; startLine: number; endLine: number }>, src: RelationSource): Promise<Array<ChunkRelation | undefined>> {
  const word = wordPattern(symbol.name);
  const def = symbol.resolution === 'defines' ? symbol.definitions[0] : undefined;
  const out: Array<ChunkRelation | undefined> = [];
  for (const c of chunks) {
    const fileText = src.textOf(c.file);
    const text = fileText === undefined ? undefined : sliceLines(fileText, c.startLine, c.endLine);
    const grammar = fileText !== undefined && text && word.test(text) ? await src.grammarFor(c.file, fileText) : undefined;
    // A chunk's occurrences depend on its text alone: kept, so the next hover that finds it parses nothing.
    const key = grammar && text ? `${grammar.name}\0${symbol.name}\0${c.startLine}\0${text}` : '';
    let found = key ? OCCURRENCES.get(key) : undefined;
    if (grammar && text && !found) {
      found = occurrencesIn(grammar, text, c.startLine, symbol.name);
      if (found) OCCURRENCES.set(key, found);
    }
    const best = found ? strongest(found) : undefined;
    if (!best) {
      // The word is there but no name node is: it is text (a string's or comment's content).
      const at = grammar && text ? text.split('\n').findIndex((l) => word.test(l)) : -1;
      out.push(at >= 0 ? { kind: 'mentions', line: c.startLine + at } : undefined);
      continue;
    }
    let kind: ChunkRelation['kind'] = best.kind;
    // A method declared with the name overrides it when its class's bases resolve to the definition.
    if (kind === 'defines' && best.method && def && src.overridden && !(def.file === c.file && def.startLine <= best.line && best.line <= def.endLine)) {
      const o = await src.overridden(c.file, best.line, symbol.name);
      if (o && o.file === def.file && def.startLine <= o.line && o.line <= def.endLine) kind = 'overrides';
    }
    out.push({ kind, line: best.line });
  }
  return out;
}
