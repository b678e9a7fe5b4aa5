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
  /** C and C++: the names the editor's text's includes define (resolve/includedNames.ts), undefined when not read by `deadline`. */
  includedNames?: (text: string, deadline: number) => Promise<ReadonlySet<string> | undefined>;
}

/** Time the headers a C or C++ file includes may take to be read (once per set of includes); past it the names are not checked. */
const VET_INCLUDES_MS = 250;
const INCLUDING = new Set(['c', 'cpp']);

/** A definition a bare name can reach (module level): not a method (`def f(self`, `fn f(&self`, `func (r T) F`, a class member without a keyword). */
const MODULE_LEVEL = /^\s*(?:export\s+)?(?:default\s+)?(?:declare\s+)?(?:abstract\s+)?(?:pub(?:\([\w:\s]+\))?\s+)?(?:async\s+)?(?:unsafe\s+)?(?:(?:class|const|let|var|interface|type|enum|namespace|struct|trait|mod|union|static|macro_rules!)\b|(?:def|function\*?|fn|func)\s+[\w$]+\s*(?:<[^>]*>|\[[^\]]*\])?\s*\((?!\s*&?\s*(?:'\w+\s+)?(?:mut\s+)?(?:self|cls)\b))/;

/** C has no methods: each of its definitions is at file level. */
const C_FILE = /\.[ch]$/;

/** Whether one of a name's definitions (their signatures) is at module level. */
export const moduleLevel = (defs: readonly { signature: string; file?: string }[]): boolean => defs.some((d) => MODULE_LEVEL.test(d.signature) || C_FILE.test(d.file ?? ''));

export async function makeVetter(state: EditorState, deps: VetterDeps): Promise<(text: string) => Vetted> {
  // With the text: a `.h` file may be C++ (chunk/languages.ts refineLanguage).
  const grammar = await deps.chunker.grammarFor(state.file, state.prefix + (state.suffix ?? ''));
  const python = grammar?.name === 'python' || state.language === 'python';
  // C and C++ bind through their includes: read (or recalled) before any name is checked.
  const included = grammar && INCLUDING.has(grammar.name) && deps.includedNames ? await deps.includedNames(state.prefix + (state.suffix ?? ''), Date.now() + VET_INCLUDES_MS) : undefined;
  let names: NameScope | undefined | null = null;
  const lazy: NameScope = {
    has: (name) => {
      if (names === null) {
        const deadline = Date.now() + VET_PARSE_MS;
        names = namesAtCursor({
          prefix: state.prefix, suffix: state.suffix ?? '', language: state.language ?? grammar?.name ?? '', grammar,
          parse: (g, text) => deps.trees.parse(state.file, g, text, () => Date.now() > deadline),
          defined: deps.defined, included,
        });
      }
      return names === undefined || names.has(name);
    },
  };
  const ctx = { prefix: state.prefix, suffix: state.suffix, python, names: grammar ? lazy : undefined, jsx: grammar?.name === 'tsx' || /\.jsx$/.test(state.file), declarators: /^(c|cpp|java)$/.test(grammar?.name ?? '') };
  return (text) => vetSuggestion(text, ctx);
}
