// find_definition: where a name is defined. At a position the name is resolved as code
// (resolve/resolver.ts: imports, re-exports, self/this, declared types) and a definition is shown
// only when resolved; anything else comes back as candidates, labelled as such. A bare name is
// looked up in the definition table: candidates by spelling.
import type { SymbolInfo } from '../lookup/symbols';
import { showable, type AgentIndex } from './agentIndex';
import { checkAborted, fitAnswer, MAX_RESULTS, nameOrPlace, ToolInputError } from './limits';
import { definitionExcerpt, filePosition } from './position';

export interface FoundDefinition {
  path: string;
  startLine: number;
  endLine: number;
  kind: string;
  /** The declaration as written (at a position) or the chunk's name (by name). */
  declaration?: string;
  doc?: string;
  excerpt: string;
}

export interface FindDefinitionResult {
  name: string | null;
  /**
   * `defines`: resolved, `definitions` holds the one the name refers to. `candidates`: not resolved,
   * same-named definitions any of which may be meant. `external`: defined outside the repository.
   * `none`: no repository name there, or no definition of that name.
   */
  resolution: 'defines' | 'candidates' | 'external' | 'none';
  note: string;
  definitions: FoundDefinition[];
  truncated: boolean;
}

export const FIND_DEFINITION_ARGS = ['name', 'path', 'line', 'column', 'limit'] as const;

export async function findDefinition(index: AgentIndex, raw: unknown, signal?: AbortSignal): Promise<FindDefinitionResult> {
  const { input, name, limit } = nameOrPlace(raw, FIND_DEFINITION_ARGS, 'name', "'line' and 'column'");
  checkAborted(signal);
  if (name !== undefined) return byName(index, name, limit);
  if (input.column === undefined) throw new ToolInputError("'column' (1-based, the name's position on the line) is required with 'path'");
  const at = filePosition(index, input);
  const symbol = await index.symbolAt(at.path, at.line, at.character);
  checkAborted(signal);
  if (!symbol) return { name: null, resolution: 'none', note: `no repository name at ${at.path}:${at.line + 1}:${at.character + 1} (a keyword, literal, comment, local variable or a name the index does not know)`, definitions: [], truncated: false };
  return atPosition(index, symbol, limit);
}

function atPosition(index: AgentIndex, symbol: SymbolInfo, limit: number): FindDefinitionResult {
  const defs = symbol.definitions.filter((d) => showable(index, d.file)).map((d): FoundDefinition => ({
    ...definitionExcerpt(index, d), kind: d.kind, declaration: d.declaration, ...(d.doc ? { doc: d.doc } : {}),
  }));
  const fitted = fitAnswer(defs.slice(0, limit));
  const truncated = fitted.truncated || defs.length > limit;
  switch (symbol.resolution) {
    case 'defines':
      return { name: symbol.name, resolution: 'defines', note: `resolved: this is the definition \`${symbol.name}\` refers to here`, definitions: fitted.items, truncated };
    case 'external':
      return { name: symbol.name, resolution: 'external', note: `\`${symbol.name}\` is defined outside the repository (a library or builtin)`, definitions: [], truncated: false };
    default:
      return fitted.items.length
        ? { name: symbol.name, resolution: 'candidates', note: `not resolved: definitions named \`${symbol.name}\`, any of which may be the one meant`, definitions: fitted.items, truncated }
        : { name: symbol.name, resolution: 'none', note: `no definition of \`${symbol.name}\` in the repository`, definitions: [], truncated: false };
  }
}

function byName(index: AgentIndex, asked: string, limit: number): FindDefinitionResult {
  const simple = asked.split(/\.|::|#/).pop()!.trim();
  const chunks = index.definitionChunks(simple, MAX_RESULTS * 4).filter((c) => showable(index, c.file));
  // `Class.method` asked: that class's method first, then the other same-named definitions.
  const exact = chunks.filter((c) => c.name === asked);
  const ordered = [...exact, ...chunks.filter((c) => c.name !== asked)];
  const defs = ordered.slice(0, limit).map((c): FoundDefinition => ({ ...definitionExcerpt(index, c), kind: c.kind, ...(c.name ? { declaration: c.name } : {}) }));
  const fitted = fitAnswer(defs);
  if (!defs.length) return { name: asked, resolution: 'none', note: `no definition named \`${simple}\` in the index`, definitions: [], truncated: false };
  return { name: asked, resolution: 'candidates', note: `matched by name, not resolved from a use: ${ordered.length} definition${ordered.length > 1 ? 's' : ''} named \`${simple}\`${ordered.length > 1 ? '; give path, line and column of a use to resolve it' : ''}`, definitions: fitted.items, truncated: fitted.truncated || ordered.length > limit };
}
