// The checks of scopeCheck.ts for one editor state, with the names bound at its cursor worked out
// once and only when a suggestion has a name to check (cursorNames.ts parses the editor's text).
import type { EditorState } from '../types';
import type { Chunker } from '../chunk';
import type { SyntaxTrees } from '../chunk/syntaxTrees';
import { namesAtCursor } from './cursorNames';
import { vetSuggestion, type NameScope, type Vetted } from './scopeCheck';

export type { Vetted };

/** Time the editor's text may take to parse for the names check; past it the names are not checked. */
const VET_PARSE_MS = 50;

export interface VetterDeps {
  chunker: Chunker;
  /** The completion check's own tree cache (re-parses the buffer from its previous keystroke's tree). */
  trees: SyntaxTrees;
  /** Whether the repository defines a name (the definition table). */
  defined: (name: string) => boolean;
}

/** A definition a bare name can reach (module level): not a method (`def f(self`, `fn f(&self`, `func (r T) F`, a class member without a keyword). */
const MODULE_LEVEL = /^\s*(?:export\s+)?(?:default\s+)?(?:declare\s+)?(?:abstract\s+)?(?:pub(?:\([\w:\s]+\))?\s+)?(?:async\s+)?(?:unsafe\s+)?(?:(?:class|const|let|var|interface|type|enum|namespace|struct|trait|mod|union|static|macro_rules!)\b|(?:def|function\*?|fn|func)\s+[\w$]+\s*(?:<[^>]*>|\[[^\]]*\])?\s*\((?!\s*&?\s*(?:'\w+\s+)?(?:mut\s+)?(?:self|cls)\b))/;

/** Whether one of a name's definitions (their signatures) is at module level. */
export const moduleLevel = (signatures: readonly { signature: string }[]): boolean => signatures.some((d) => MODULE_LEVEL.test(d.signature));

export async function makeVetter(state: EditorState, deps: VetterDeps): Promise<(text: string) => Vetted> {
  const grammar = await deps.chunker.grammarFor(state.file);
  const python = grammar?.name === 'python' || state.language === 'python';
  let names: NameScope | undefined | null = null;
  const lazy: NameScope = {
    has: (name) => {
      if (names === null) {
        const deadline = Date.now() + VET_PARSE_MS;
        names = namesAtCursor({
          prefix: state.prefix, suffix: state.suffix ?? '', language: state.language ?? grammar?.name ?? '', grammar,
          parse: (g, text) => deps.trees.parse(state.file, g, text, () => Date.now() > deadline),
          defined: deps.defined,
        });
      }
      return names === undefined || names.has(name);
    },
  };
  const ctx = { prefix: state.prefix, suffix: state.suffix, python, names: grammar ? lazy : undefined, jsx: grammar?.name === 'tsx' || /\.jsx$/.test(state.file) };
  return (text) => vetSuggestion(text, ctx);
}
