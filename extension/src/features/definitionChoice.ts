// Which definition the hover and Find Related Code show, and from where: the language server's
// answer when it gave one in time, else the engine's resolver (issue 29). No `vscode` import:
// unit-tested.
import type { DefinitionAt, RetrievedChunk, SymbolInfo } from '../../../engine/src/public';

/** What the definition provider said: nothing (`late`: not within its budget, or still busy), or a location (a URI string). */
export type ServerAnswer = { kind: 'none'; late?: boolean } | { kind: 'at'; uri: string; line: number; character: number };

/** Where the definition shown comes from, in the words the UI uses. */
export type DefinitionSource = 'language server' | 'resolver' | 'name';

export const SOURCE_WORDS: Record<DefinitionSource, string> = {
  'language server': 'definition from the language server',
  resolver: 'resolved by RepoRecall',
  name: 'found by name',
};

export interface DefinitionChoice {
  symbol: SymbolInfo;
  source?: DefinitionSource;
  /** Siblings of the language server's definition (Find Related Code), when it differs from the engine's. */
  siblings?: RetrievedChunk[];
}

/**
 * The engine's answer is as sure as a language server's: a definition bound in this file or reached
 * through its imports (not through a type, a class's bases or the repository's only definition of
 * the name), or a name this file imports from a module the repository lacks (a library).
 */
export function engineIsCertain(symbol: SymbolInfo): boolean {
  if (symbol.resolution === 'external') return symbol.resolvedVia === 'import';
  return symbol.resolution === 'defines' && (symbol.resolvedVia === 'file' || symbol.resolvedVia === 'import');
}

/** What the engine's own answer says, with no language server. */
export function engineChoice(symbol: SymbolInfo): DefinitionChoice {
  const source: DefinitionSource | undefined = symbol.resolution === 'defines' ? 'resolver' : symbol.resolution === 'name' ? 'name' : undefined;
  return { symbol, ...(source ? { source } : {}) };
}

/**
 * Merges the language server's answer into the engine's symbol. `relPathOf` maps a URI to the
 * folder's relative path (undefined outside it); `describe` asks the engine what is at a location.
 * Returns null when the server's definition is a local: no RepoRecall hover at all.
 */
export async function chooseDefinition(
  symbol: SymbolInfo, rel: string, server: ServerAnswer,
  relPathOf: (uri: string) => string | undefined,
  describe: (file: string, line: number, character: number) => Promise<DefinitionAt & { siblings?: RetrievedChunk[] }>,
): Promise<DefinitionChoice | null> {
  if (server.kind === 'none') return engineChoice(symbol);
  const file = relPathOf(server.uri);
  const outside: DefinitionChoice = { symbol: { ...symbol, resolution: 'external', definitions: [], copies: undefined }, source: 'language server' };
  if (file === undefined) return outside;
  const own = symbol.resolution === 'defines' ? symbol.definitions[0] : undefined;
  if (own && own.file === file && own.startLine <= server.line && server.line <= own.endLine) return { symbol, source: 'language server' };
  const at = await describe(file, server.line, server.character);
  if (at.local) return null;
  if (!at.definition) return outside;
  // The hovered name is the declaration itself.
  if (file === rel && server.line === symbol.line && server.character >= symbol.startCharacter && server.character <= symbol.endCharacter) {
    return { symbol: { ...symbol, role: 'definition', resolution: 'defines', definitions: [at.definition], copies: at.copies }, source: 'language server' };
  }
  return {
    symbol: { ...symbol, resolution: 'defines', definitions: [at.definition], copies: at.copies },
    source: 'language server',
    ...(at.siblings ? { siblings: at.siblings } : {}),
  };
}
