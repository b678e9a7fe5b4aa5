// The definitions of the names in play, resolved as code (issue 29 part 4): a share of a completion
// context's budget goes to what the names used near the cursor are, where the resolver follows them
// through the file's imports (or up the file, above the editor window) to one definition. A
// definition holds the names a next line needs (a method of the class a variable holds, the
// parameters of the function imported) in few tokens; `declarations.ts` did the same by spelling
// and gained nothing, since a common name's definitions are mostly the wrong ones.
//
// Each definition is shown whole when small, else as its outline: its decorators, its declaration,
// and for a class, interface, type or object literal its members' first lines; comments are dropped.
// Nearest use first; a definition adding no name beyond the editor's last lines and those shown
// before it is left out, as is one that does not fit. Definitions of one file form one chunk.
import type { ResolvedDef } from '../resolve/types';
import type { ChunkKind, RetrievedChunk } from '../types';

const IDENT = /[A-Za-z_$][A-Za-z0-9_$]*/g;

export interface ResolvedUse {
  /** The name as used. */
  name: string;
  /** The line it is used on (0-based). */
  line: number;
  def: ResolvedDef;
}

export interface DefinitionPacking {
  /** Characters the definitions may take (4 per token). */
  budgetChars: number;
  /** The file being edited and the first line the editor window shows (its definitions there are on screen). */
  file: string;
  windowStart: number;
  cursorLine: number;
  /** Names the editor's last lines show (they add nothing); the names of what is picked are added. */
  seen: Set<string>;
}

/** The share of a completion context's budget the definitions may take by default (RetrieveOptions.definitionTokens). */
export const DEFINITION_SHARE = 0;
/** A definition of at most this many lines is shown whole. */
export const WHOLE_LINES = 12;
/** Lines of an outline: decorators above the declaration, and members. */
const MAX_LEAD_LINES = 4;
const MAX_MEMBER_LINES = 24;
const MAX_HEADER_LINES = 6;

/** A comment line (doc comments are dropped: they hold few names for their tokens); `#x` is a private field. */
const COMMENT = /^\s*(\/\/|\/\*|\*(\s|\/|$)|#(\s|!|$))/;

/** Classes and types hold members; a variable or attribute only when its value is an object literal (not a function). */
function holdsMembers(d: ResolvedDef, header: string[]): boolean {
  if (d.role === 'class' || d.role === 'type') return true;
  return (d.role === 'variable' || d.role === 'attribute') && /[=:]\s*\{\s*$/.test(header[header.length - 1]?.trimEnd() ?? '');
}

/** Lines that are code: not blank, not comments, not inside a Python docstring. */
function codeOnly(lines: readonly string[]): string[] {
  const out: string[] = [];
  let inString = false;
  for (const l of lines) {
    const quotes = (l.match(/"""|'''/g) ?? []).length;
    if (!inString && quotes === 0 && l.trim() && !COMMENT.test(l)) out.push(l);
    if (quotes % 2 === 1) inString = !inString;
  }
  return out;
}

/** Lines without their common indentation and without blank lines. */
function dedent(lines: string[]): string[] {
  const kept = codeOnly(lines).map((l) => l.trimEnd());
  const indent = Math.min(...kept.map((l) => l.length - l.trimStart().length));
  return Number.isFinite(indent) ? kept.map((l) => l.slice(indent)) : kept;
}

/** The declaration up to the line that opens its body (`{`, `:`, `=>`): its parameters' names. */
function headerOf(lines: readonly string[], d: ResolvedDef): string[] {
  const out: string[] = [];
  for (let i = d.declLine; i <= d.endLine && out.length < MAX_HEADER_LINES; i++) {
    out.push(lines[i] ?? '');
    if (/[{:;]\s*(\/\/.*|#.*)?$|=>\s*\S*$/.test((lines[i] ?? '').trimEnd())) break;
  }
  return out;
}

/** A long definition as its decorators, its declaration and, for a member holder, the first line of each member. */
export function outlineOf(lines: readonly string[], d: ResolvedDef): string {
  const header = headerOf(lines, d);
  const out = dedent([...lines.slice(d.startLine, d.declLine).slice(-MAX_LEAD_LINES), ...header]);
  if (holdsMembers(d, header)) {
    // The body's shallowest lines are its members' first lines (deeper ones are their bodies).
    const body = codeOnly(lines.slice(d.declLine + header.length, d.endLine)).filter((l) => !/^\s*[)}\]]/.test(l));
    const depth = Math.min(...body.map((l) => l.length - l.trimStart().length));
    const members = body.filter((l) => l.length - l.trimStart().length === depth).slice(0, MAX_MEMBER_LINES);
    out.push(...members.map((l) => `  ${l.trim()}`));
  }
  return out.join('\n');
}

/** The text shown for a definition: whole when small, else its outline; without comments. */
export function definitionText(lines: readonly string[], d: ResolvedDef): string {
  if (d.endLine - d.startLine + 1 <= WHOLE_LINES) return dedent(lines.slice(d.startLine, d.endLine + 1)).join('\n');
  return outlineOf(lines, d);
}

/** The definitions of `uses` (nearest first) that fit `opts.budgetChars`, one chunk per file in order of first pick. */
export function packDefinitions(uses: readonly ResolvedUse[], linesOf: (file: string) => readonly string[], opts: DefinitionPacking): RetrievedChunk[] {
  const byFile = new Map<string, { texts: string[]; startLine: number; endLine: number; rank: number }>();
  const done = new Set<string>();
  let used = 0;
  uses.forEach((u, rank) => {
    const d = u.def;
    const key = `${d.file}\0${d.declLine}`;
    if (done.has(key)) return;
    done.add(key);
    // The editor shows it already (the window's lines, or the definition the cursor is in).
    if (d.file === opts.file && d.endLine >= opts.windowStart && d.startLine <= opts.cursorLine) return;
    const lines = linesOf(d.file);
    const whole = definitionText(lines, d);
    const text = used + whole.length + 1 <= opts.budgetChars ? whole : outlineOf(lines, d);
    if (used + text.length + 1 > opts.budgetChars) return;
    if (!(text.match(IDENT) ?? []).some((n) => !opts.seen.has(n))) return;
    for (const n of text.match(IDENT) ?? []) opts.seen.add(n);
    used += text.length + 1;
    const f = byFile.get(d.file);
    if (f) {
      f.texts.push(text);
      f.startLine = Math.min(f.startLine, d.startLine);
      f.endLine = Math.max(f.endLine, d.endLine);
    } else byFile.set(d.file, { texts: [text], startLine: d.startLine, endLine: d.endLine, rank });
  });
  return [...byFile].map(([file, f]) => ({
    file,
    startLine: f.startLine,
    endLine: f.endLine,
    kind: 'type' as ChunkKind,
    name: 'definitions',
    text: f.texts.join('\n'),
    score: 1 / (1 + f.rank),
    signals: { definitions: 1 },
  }));
}
