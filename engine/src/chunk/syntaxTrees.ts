// The latest syntax trees of the few files the user works in, shared by the chunker's live updates
// of unsaved buffers and by symbol lookups (hover, Find Related Code). A full parse of a large file
// holds the engine for 50-200 ms, during which no keystroke is answered; with one cache, a buffer is
// parsed in full at most once and every later version is re-parsed from the previous one
// (reparse.ts), whichever of the two asks first.
import type { Tree } from 'web-tree-sitter';
import type { FoundDefinition } from './extract';
import type { LoadedGrammar } from './grammar';
import { parseReusing } from './reparse';

interface Entry {
  relPath: string;
  grammar: string;
  text: string;
  tree: Tree;
  /** The definitions the chunker extracted from this tree (its live update), for the hover's lookups of this text. */
  definitions?: FoundDefinition[];
}

export class SyntaxTrees {
  /** Most recently used first. */
  private entries: Entry[] = [];

  /** @param capacity files whose latest tree is kept */
  constructor(private readonly capacity = 4) {}

  /**
   * The tree of `text` for `relPath`: the kept one when the text is the same, else parsed from the
   * file's previous tree (or from scratch) and kept as its latest. Null when `progress` cancelled
   * the parse. The tree stays owned by the cache: use it before the next await (a later parse may
   * replace it) and never delete it.
   */
  parse(relPath: string, grammar: LoadedGrammar, text: string, progress: () => boolean): Tree | null {
    const at = this.entries.findIndex((e) => e.relPath === relPath && e.grammar === grammar.name);
    const previous = at >= 0 ? this.entries[at] : undefined;
    if (previous && previous.text === text) {
      this.entries.splice(at, 1);
      this.entries.unshift(previous);
      return previous.tree;
    }
    const tree = parseReusing(grammar.parser, text, previous, progress);
    if (!tree) return null;
    if (previous) {
      this.entries.splice(at, 1);
      previous.tree.delete();
    }
    this.entries.unshift({ relPath, grammar: grammar.name, text, tree });
    for (const old of this.entries.splice(this.capacity)) old.tree.delete();
    return tree;
  }

  /** The kept tree of exactly this text of `relPath`, if any (not parsed, not reordered; owned by the cache: use it before the next await). */
  kept(relPath: string, grammar: string, text: string): Tree | undefined {
    return this.entries.find((e) => e.relPath === relPath && e.grammar === grammar && e.text === text)?.tree;
  }

  /** Records the definitions extracted from the kept tree of exactly this text (the chunker's, once per text). */
  keepDefinitions(relPath: string, grammar: string, text: string, definitions: FoundDefinition[]): void {
    const e = this.entries.find((x) => x.relPath === relPath && x.grammar === grammar && x.text === text);
    if (e) e.definitions = definitions;
  }

  /** The definitions extracted from the kept tree of exactly this text, if the chunker has read them (valid while the tree is kept: use before the next await). */
  definitions(relPath: string, grammar: string, text: string): FoundDefinition[] | undefined {
    return this.entries.find((e) => e.relPath === relPath && e.grammar === grammar && e.text === text)?.definitions;
  }

  /** Files whose trees are kept, most recent first (tests). */
  get files(): string[] {
    return this.entries.map((e) => e.relPath);
  }

  dispose(): void {
    for (const e of this.entries) e.tree.delete();
    this.entries = [];
  }
}
