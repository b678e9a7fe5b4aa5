// Positions for the UI benchmark: seeded draws from the split's tasks (where real code continues),
// and hover places classified by a small lexer (identifier / keyword / comment / string / number).
import * as fs from 'node:fs';
import * as path from 'node:path';

export interface UiTask {
  id: string;
  file: string;
  line: number;
  target: string;
  language: string;
}

export type PlaceKind = 'identifier' | 'keyword' | 'comment' | 'string' | 'number';

export interface Place {
  kind: PlaceKind;
  line: number;
  /** 0-based column of the token's first character. */
  character: number;
  text: string;
}

/** mulberry32: a small seeded generator, so a run draws the same positions. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Only tasks whose target line has something to type (two characters at least) can show ghost text after typing. */
export function drawTasks(splitDir: string, repo: string, n: number, seed: number): UiTask[] {
  const all = fs.readFileSync(path.join(splitDir, 'tasks.jsonl'), 'utf8').split('\n').filter(Boolean)
    .map((l) => JSON.parse(l) as { id: string; repo: string; file: string; cursor: { line: number }; target: string; language: string })
    .filter((t) => t.repo === repo && t.target.trim().length >= 2)
    .map((t) => ({ id: t.id, file: t.file, line: t.cursor.line, target: t.target, language: t.language }));
  if (!all.length) throw new Error(`no tasks for repository ${repo} in ${splitDir}/tasks.jsonl`);
  const r = rng(seed);
  for (let i = all.length - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1));
    [all[i], all[j]] = [all[j], all[i]];
  }
  return all.slice(0, Math.min(n, all.length));
}

const KEYWORDS: Record<string, Set<string>> = {
  ts: new Set(('abstract as async await break case catch class const constructor continue debugger declare default delete do else enum export extends ' +
    'false finally for from function get if implements import in instanceof interface keyof let new null of private protected public readonly ' +
    'return set static super switch this throw true try type typeof undefined var void while yield satisfies unknown never any string number boolean').split(' ')),
  py: new Set(('False None True and as assert async await break class continue def del elif else except finally for from global if import in is ' +
    'lambda nonlocal not or pass raise return try while with yield self').split(' ')),
};

/** Tokens of `lines[from..to)` with their kind; a line's comment and strings are found left to right (no multi-line state). */
export function classifyPlaces(lines: string[], from: number, to: number, python: boolean): Place[] {
  const kw = python ? KEYWORDS.py : KEYWORDS.ts;
  const out: Place[] = [];
  let inBlock = false;
  for (let ln = Math.max(0, from); ln < Math.min(lines.length, to); ln++) {
    const s = lines[ln];
    let i = 0;
    while (i < s.length) {
      const c = s[i];
      if (inBlock) {
        const end = s.indexOf('*/', i);
        const seg = end < 0 ? s.slice(i) : s.slice(i, end);
        const w = /[A-Za-z_]{3,}/.exec(seg);
        if (w) out.push({ kind: 'comment', line: ln, character: i + w.index, text: w[0] });
        if (end < 0) break;
        inBlock = false;
        i = end + 2;
        continue;
      }
      if ((!python && s.startsWith('//', i)) || (python && c === '#')) {
        const w = /[A-Za-z_]{3,}/.exec(s.slice(i));
        if (w) out.push({ kind: 'comment', line: ln, character: i + w.index, text: w[0] });
        break;
      }
      if (!python && s.startsWith('/*', i)) {
        inBlock = true;
        i += 2;
        continue;
      }
      if (c === '"' || c === "'" || c === '`') {
        let j = i + 1;
        while (j < s.length && s[j] !== c) j += s[j] === '\\' ? 2 : 1;
        const w = /[A-Za-z_]{3,}/.exec(s.slice(i + 1, j));
        if (w) out.push({ kind: 'string', line: ln, character: i + 1 + w.index, text: w[0] });
        i = j + 1;
        continue;
      }
      if (/[0-9]/.test(c) && (i === 0 || !/[\w$]/.test(s[i - 1]))) {
        const m = /^[0-9][0-9_.xXa-fA-F]*/.exec(s.slice(i))!;
        out.push({ kind: 'number', line: ln, character: i, text: m[0] });
        i += m[0].length;
        continue;
      }
      if (/[A-Za-z_$]/.test(c)) {
        const m = /^[A-Za-z_$][\w$]*/.exec(s.slice(i))!;
        const word = m[0];
        const prevDot = i > 0 && s[i - 1] === '.';
        if (kw.has(word) && !prevDot) out.push({ kind: 'keyword', line: ln, character: i, text: word });
        else if (word.length >= 3) out.push({ kind: 'identifier', line: ln, character: i, text: word });
        i += word.length;
        continue;
      }
      i++;
    }
  }
  return out;
}

/** Normalised text of a result row: lower case, whitespace collapsed, scores and `file:line` left out. */
export function normaliseRow(text: string): string {
  return text.toLowerCase().replace(/score\s+[-\d.]+/g, '').replace(/\S+:\d+\b/g, '').replace(/\s+/g, ' ').trim();
}

/** Rows whose normalised text equals an earlier row's (among the first 10). */
export function duplicateRows(rows: string[]): number {
  const seen = new Set<string>();
  let dups = 0;
  for (const r of rows.slice(0, 10)) {
    const n = normaliseRow(r);
    if (seen.has(n)) dups++;
    else seen.add(n);
  }
  return dups;
}

export function percentile(xs: number[], p: number): number | null {
  if (!xs.length) return null;
  const s = [...xs].sort((a, b) => a - b);
  const idx = Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1));
  return Math.round(s[idx] * 10) / 10;
}

/** Up to `n` identifiers to hover, nearest the cursor first, one per distinct name (a name hovered twice would be served from the hover's cache). */
export function hoverIdentifiers(ident: Place[], n: number): Place[] {
  const out: Place[] = [];
  for (let i = ident.length - 1; i >= 0 && out.length < n; i--) if (!out.some((p) => p.text === ident[i].text)) out.push(ident[i]);
  return out;
}
