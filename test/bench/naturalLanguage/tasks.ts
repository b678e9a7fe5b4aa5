// Protocol N's tasks: a repository's own documented functions. The first paragraph of a function's
// doc comment or docstring, without the function's name and its sub-tokens, is the query; the
// function is the positive. The sampled docs are blanked (spaces, same lines and columns) in the
// copy the systems index, so the query text is not in their corpus. Docs and ranges come from the
// engine's chunker (tree-sitter grammars and queries, engine/src/chunk/extract.ts).
import * as fs from 'fs';
import * as path from 'path';
import type { Node } from 'web-tree-sitter';
import type { Chunker } from '../../../engine/src/chunk';
import { extract, type FoundDefinition } from '../../../engine/src/chunk/extract';
import { GRAMMARS } from '../../../engine/src/chunk/languages';
import { LineIndex } from '../../../engine/src/chunk/lines';
import { mulberry32 } from '../../../engine/src/util/prng';
import type { Repo } from '../split';

export interface NlTask {
  id: string;
  repo: string;
  /** The repository's language family (the reporting subset). */
  language: string;
  query: string;
  /** The doc's description as written (before the name was removed). */
  description: string;
  file: string;
  /** The function's name and its line range (declaration to end, 0-based, inclusive). */
  name: string;
  startLine: number;
  endLine: number;
}

export interface NlTaskSet {
  tasks: NlTask[];
  /** Relative path → content with the sampled docs blanked (only the files that changed). */
  blanked: Map<string, string>;
  /** Documented functions found, and candidates dropped by each rule. */
  counts: Record<string, number>;
}

/** Words a query keeps at least (after the name's sub-tokens are removed). */
export const MIN_QUERY_WORDS = 8;
/** Tasks per repository at most. */
export const TASKS_PER_REPO = 100;
const SEED = 20250717;

/** Lower-cased sub-tokens of an identifier (camelCase, PascalCase, snake_case, digits) and the identifier itself. */
export function nameTokens(name: string): Set<string> {
  const parts = (name.match(/[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+/g) ?? []).map((p) => p.toLowerCase());
  return new Set([name.toLowerCase(), ...parts]);
}

const WORD = /[A-Za-z0-9_$]+/g;

/** The query without every word that is, or contains as a sub-token, one of the name's sub-tokens. */
export function withoutName(text: string, name: string): string {
  const banned = nameTokens(name);
  const kept = text.replace(WORD, (w) => ([...nameTokens(w)].some((t) => banned.has(t)) ? ' ' : w));
  // Markup left empty by the removal (`` ` ` ``, `[ ]`, `{@link }`, `<code></code>`) goes too.
  return kept.replace(/`\s*`|\[\s*\]|\(\s*\)|\{@\w+\s*\}|<(\w+)>\s*<\/\1>/g, ' ').replace(/\s+/g, ' ').trim();
}

/** Where a doc's description ends: a blank line, a tag (`@param`, `:param`), a section (`Args:`, `# Examples`). */
const SECTION = /^\s*(@\w|:\w+|(Args|Arguments|Parameters|Params|Returns?|Yields?|Raises|Throws|Examples?|Notes?|See Also|Attributes|Usage|Errors|Panics|Safety)\s*:?\s*$|#+\s|-{3,}|={3,})/i;

/** A doc's first paragraph as one line (its description, without tags and sections). */
export function firstParagraph(doc: string): string {
  const out: string[] = [];
  for (const line of doc.split('\n')) {
    if (!line.trim() || SECTION.test(line)) {
      if (out.length) break;
      continue;
    }
    out.push(line.trim());
  }
  return out.join(' ').replace(/\s+/g, ' ').trim();
}

export const wordCount = (text: string): number => (text.match(/[A-Za-z]{2,}/g) ?? []).length;

/** Text for substring checks: lower case, every run of other characters one space. */
export const normalizedWords = (text: string): string => ` ${text.toLowerCase().replace(/[^a-z0-9]+/g, ' ').trim()} `;

/** A comment or docstring region to blank: [from, to) character offsets in the file. */
interface Region { from: number; to: number }

/** The doc's regions: the comment lines above the declaration, or the docstring's inside. */
function docRegions(def: FoundDefinition, content: string, lines: LineIndex, python: boolean): Region[] {
  const starts = [0];
  for (let i = content.indexOf('\n'); i >= 0; i = content.indexOf('\n', i + 1)) starts.push(i + 1);
  if (python) {
    const string = pythonDocstringNode(def.node);
    if (string) {
      const open = /^[rRbBuUfF]*("""|'''|"|')/.exec(string.text);
      const quote = open ? open[1].length : 0;
      return [{ from: string.startIndex + (open ? open[0].length : 0), to: string.endIndex - quote }];
    }
  }
  const out: Region[] = [];
  let inBlock = false;
  for (let i = def.startLine; i < def.declLine; i++) {
    const text = lines.lines[i];
    const t = text.trim();
    const comment = inBlock || /^(\/\/|\/\*|\*)/.test(t) || (python && /^#(?![[!])/.test(t));
    if (comment) out.push({ from: starts[i], to: starts[i] + text.length });
    const open = text.lastIndexOf('/*');
    const close = text.lastIndexOf('*/');
    if (!python && open !== close) inBlock = open > close;
  }
  return out;
}

/** The docstring node: the body's first statement when it is a string (as extract.ts reads it). */
function pythonDocstringNode(definition: Node): Node | undefined {
  const first = definition.childForFieldName('body')?.firstNamedChild;
  const string = first?.type === 'expression_statement' ? first.firstNamedChild : undefined;
  return string?.type === 'string' ? string : undefined;
}

/** The content with every character of the regions but line breaks replaced by a space (lines and columns unchanged). */
export function blank(content: string, regions: Region[]): string {
  const chars = [...content.split('')];
  for (const r of regions) for (let i = r.from; i < r.to; i++) if (chars[i] !== '\n' && chars[i] !== '\r') chars[i] = ' ';
  return chars.join('');
}

interface Candidate { file: string; def: FoundDefinition; query: string; paragraph: string; regions: Region[] }

/** Documented functions and methods of one file whose description passes the rules. */
async function candidatesOf(chunker: Chunker, file: string, content: string, counts: Record<string, number>): Promise<Candidate[]> {
  const grammar = await chunker.grammarFor(file, content);
  if (!grammar) return [];
  const tree = grammar.parser.parse(content);
  if (!tree) return [];
  try {
    const lines = new LineIndex(content);
    const python = grammar.name === 'python';
    const found = extract(tree.rootNode, grammar.query, GRAMMARS[grammar.name], content, lines, Date.now() + 10_000);
    const out: Candidate[] = [];
    for (const def of found.definitions) {
      if ((def.role !== 'function' && def.role !== 'method') || !def.doc) continue;
      counts.documented = (counts.documented ?? 0) + 1;
      const paragraph = firstParagraph(def.doc);
      const query = withoutName(paragraph, def.name);
      if (/copyright|licen[cs]e/i.test(def.doc)) counts.license = (counts.license ?? 0) + 1;
      else if (wordCount(query) < MIN_QUERY_WORDS) counts.short = (counts.short ?? 0) + 1;
      else out.push({ file, def, query, paragraph, regions: docRegions(def, content, lines, python) });
    }
    return out;
  } finally {
    tree.delete();
  }
}

/** Fisher–Yates with the project's seeded PRNG. */
function shuffled<T>(items: T[], seed: number): T[] {
  const rand = mulberry32(seed);
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

const seedOf = (repo: string): number => [...repo].reduce((h, c) => (Math.imul(h, 31) + c.charCodeAt(0)) >>> 0, SEED);

/**
 * The repository's tasks (at most `cap`, drawn with a seed per repository from its candidates in
 * path and line order, a query shared by several functions skipped) and its files with their docs blanked.
 * A task whose description still occurs anywhere in the blanked corpus (a copied doc) is dropped.
 */
export async function buildNlTasks(repo: Repo, chunker: Chunker, cap = TASKS_PER_REPO): Promise<NlTaskSet> {
  const counts: Record<string, number> = {};
  const all: Candidate[] = [];
  for (const f of repo.files) all.push(...(await candidatesOf(chunker, f.relPath, f.content, counts)));
  // A query that is also another function's (each without its own name: `JSON serializes …`,
  // `XML serializes …`) describes both: ambiguous, not drawn.
  const uses = new Map<string, number>();
  for (const c of all) uses.set(c.query, (uses.get(c.query) ?? 0) + 1);
  const drawn: Candidate[] = [];
  for (const c of shuffled(all, seedOf(repo.name))) {
    if (drawn.length >= cap) break;
    if (uses.get(c.query)! > 1) counts.ambiguous = (counts.ambiguous ?? 0) + 1;
    else drawn.push(c);
  }
  const blanked = new Map<string, string>();
  for (const c of drawn) blanked.set(c.file, blank(blanked.get(c.file) ?? repo.byPath.get(c.file)!.content, c.regions));
  const corpus = repo.files.map((f) => normalizedWords(blanked.get(f.relPath) ?? f.content)).join('\n');
  const tasks: NlTask[] = [];
  for (const c of drawn) {
    if (corpus.includes(normalizedWords(c.paragraph))) {
      counts.leaked = (counts.leaked ?? 0) + 1;
      continue;
    }
    const d = c.def;
    tasks.push({ id: `nl/${repo.name}/${c.file}:${d.declLine}`, repo: repo.name, language: repo.language, query: c.query, description: c.paragraph, file: c.file, name: d.name, startLine: d.declLine, endLine: d.endLine });
  }
  counts.candidates = all.length;
  counts.tasks = tasks.length;
  return { tasks, blanked, counts };
}

/** Writes the corpus the systems index: every file of the repository, the blanked ones as blanked. */
export function writeCorpusCopy(repo: Repo, blanked: Map<string, string>, dir: string): void {
  for (const f of repo.files) {
    const to = path.join(dir, f.relPath);
    fs.mkdirSync(path.dirname(to), { recursive: true });
    fs.writeFileSync(to, blanked.get(f.relPath) ?? f.content);
  }
}
