// A file's definitions as the hover describes them (declaration as written, doc, a `Copied from`
// note), kept per text. A buffer's live update extracted its text's definitions already (the
// chunker keeps them beside its tree, chunk/syntaxTrees.ts): the hover reads those rather than run
// the same query over the file again (80-90 ms for a 2,800-line file, on the hover's path).
import type { Chunker } from '../chunk';
import { extract, type FoundDefinition } from '../chunk/extract';
import { GRAMMARS } from '../chunk/languages';
import { LineIndex } from '../chunk/lines';
import { parseReusing } from '../chunk/reparse';
import { RecentMap } from '../util/recentMap';
import { cleanDoc, copyNote, declarationText, MAX_PARSE_CHARS, PARSE_TIMEOUT_MS, quickHash, type FoundDefinitionLite } from './symbolSyntax';

/** Files' definitions kept (one text each). */
const KEPT = 256;

export class FileDefinitions {
  private readonly kept = new RecentMap<string, FoundDefinitionLite[]>(KEPT);

  constructor(private readonly chunker: Chunker) {}

  /** Whether `of(file, text)` would read nothing (kept for this text, or too large to read). */
  has(file: string, text: string): boolean {
    return text.length > MAX_PARSE_CHARS || this.kept.has(keyOf(file, text));
  }

  /** The definitions in `text` of `file`. */
  async of(file: string, text: string): Promise<FoundDefinitionLite[]> {
    if (text.length > MAX_PARSE_CHARS) return [];
    const key = keyOf(file, text);
    const cached = this.kept.get(key);
    if (cached) return cached;
    const grammar = await this.chunker.grammarFor(file, text);
    if (!grammar) return [];
    const deadline = Date.now() + PARSE_TIMEOUT_MS;
    const lines = new LineIndex(text);
    const extracted = this.chunker.trees.definitions(file, grammar.name, text);
    const kept = extracted ? undefined : this.chunker.trees.kept(file, grammar.name, text); // the file hovered or typed in: parsed already
    const tree = extracted ? undefined : kept ?? parseReusing(grammar.parser, text, undefined, () => Date.now() > deadline);
    if (!extracted && !tree) return [];
    let found: FoundDefinition[];
    try {
      found = extracted ?? extract(tree!.rootNode, grammar.query, GRAMMARS[grammar.name], text, lines, deadline).definitions;
    } finally {
      if (tree && !kept) tree.delete();
    }
    const defs = found.map((d) => ({
      name: d.name, role: d.role, startLine: d.startLine, endLine: d.endLine, declLine: d.declLine,
      declaration: declarationText(d, lines.lines), doc: cleanDoc(d.doc), copyOf: copyNote(lines.lines, d.startLine, d.declLine),
    }));
    this.kept.deleteWhere((_, k) => k.startsWith(`${file}\0`)); // one text per file
    this.kept.set(key, defs);
    return defs;
  }

  clear(): void {
    this.kept.clear();
  }
}

const keyOf = (file: string, text: string): string => `${file}\0${text.length}\0${quickHash(text)}`;
