// Which names are bound at the cursor, for the checks of scopeCheck.ts. Where the grammar has a
// `locals` query the scopes say it (resolve/scopes.ts, on the editor's text before and after the
// cursor); otherwise, or when its parse runs out of time, the lines of the enclosing function and
// the file's top-level declarations and imports do, by text. Everywhere the repository's
// definitions (the index's definition table) and the language's builtins are bound, and so is a name
// the file uses but binds nowhere (a global of the environment: `describe`, `jest`; in C and C++ a
// system header's). C and C++ bind through #include too: the names the included headers define.
import type { Node, Tree } from 'web-tree-sitter';
import type { LoadedGrammar } from '../chunk/grammar';
import { LocalScopes } from '../resolve/scopes';
import { builtinNames } from './builtinNames';
import { maskNonCode, type NameScope } from './scopeCheck';

export interface CursorNamesInput {
  prefix: string;
  suffix: string;
  language: string;
  grammar: LoadedGrammar | undefined;
  /** Parses the editor's text (prefix + suffix) with `grammar`; null when the parse was cancelled. */
  parse: (grammar: LoadedGrammar, text: string) => Tree | null;
  /** Whether the repository defines the name (the definition table). */
  defined: (name: string) => boolean;
  /** C and C++: the names the file's includes define (undefined: not known, so names are not checked). */
  included?: ReadonlySet<string>;
}

const NAME = /[A-Za-z_$][\w$]*/g;
/** Languages whose names are bound through includes: checked only with the included names known. */
const INCLUDING = new Set(['c', 'cpp']);

/** Names bound at the cursor, or undefined where they cannot be known (no grammar, C/C++ with its includes unread, a Python star import). */
export function namesAtCursor(input: CursorNamesInput): NameScope | undefined {
  const { prefix, suffix, grammar } = input;
  if (!grammar || (INCLUDING.has(grammar.name) && !input.included)) return undefined;
  const included: ReadonlySet<string> = input.included ?? new Set();
  const python = grammar.name === 'python';
  const text = prefix + suffix;
  const code = maskNonCode(text, python);
  if (python && /^\s*from\s+\S+\s+import\s+\*/m.test(code)) return undefined;
  const builtins = builtinNames(input.language) ?? new Set<string>();
  let visible: Set<string>, definedInFile: Set<string>;
  const tree = grammar.locals ? input.parse(grammar, text) : null;
  if (grammar.locals && tree) {
    const scopes = new LocalScopes(tree, grammar.locals, python);
    visible = new Set<string>();
    const nodes = cursorNodes(tree, prefix);
    for (const node of nodes) for (const n of scopes.visibleAt(node)) visible.add(n);
    // C and C++: a macro the grammar cannot expand (`SECTION("x") {`, `FMT_BEGIN_NAMESPACE`) leaves the
    // cursor in an ERROR node, whose scopes are partial: the enclosing function's names by text too.
    if (INCLUDING.has(grammar.name) && nodes.some(inError)) for (const n of lexicalNamesAt(code, prefix.length, python)) visible.add(n);
    definedInFile = scopes.definedNames();
  } else {
    // No `locals` query, or its parse ran out of time: by text.
    visible = lexicalNamesAt(code, prefix.length, python);
    // Go imports name their package by the path's last segment (or an alias), inside a string.
    for (const m of text.matchAll(/^\s*(?:import\s+)?(?:([A-Za-z_]\w*)\s+)?"([^"\n]+)"\s*$/gm)) visible.add(m[1] ?? m[2].split('/').filter((s) => !/^v\d+$/.test(s)).pop()!);
    definedInFile = new Set(code.match(NAME) ?? []); // by text nothing is known to come from the environment
  }
  // A name used (not as a member) somewhere in the file and bound nowhere in it comes from the environment.
  const ambient = new Set<string>();
  for (const m of code.matchAll(NAME)) {
    if (!/[\w$.]$/.test(code.slice(Math.max(0, m.index! - 1), m.index!)) && !definedInFile.has(m[0])) ambient.add(m[0]);
  }
  return { has: (name) => visible.has(name) || builtins.has(name) || ambient.has(name) || included.has(name) || input.defined(name) };
}

const inError = (node: Node): boolean => {
  for (let p: Node | null = node; p; p = p.parent) if (p.type === 'ERROR') return true;
  return false;
};

/** The node at the cursor and at the end of the last code line before it (a blank line after a Python body lies outside its node). */
function cursorNodes(tree: Tree, prefix: string): Node[] {
  const lines = prefix.split('\n');
  const row = lines.length - 1;
  const out: Node[] = [];
  const at = tree.rootNode.descendantForPosition({ row, column: lines[row].length });
  if (at) out.push(at);
  for (let r = row - 1; r >= 0 && r > row - 50; r--) {
    const l = lines[r].trimEnd();
    if (!l.trim()) continue;
    const prev = tree.rootNode.descendantForPosition({ row: r, column: Math.max(0, l.length - 1) });
    if (prev) out.push(prev);
    break;
  }
  return out;
}

/**
 * By text, for a language without a `locals` query: the names the enclosing function binds before the
 * cursor (every name it mentions there, not as a member) and every name on the file's top-level
 * declaration and import lines.
 */
/** Words that open a statement with a parenthesis, never a function of C-like syntax (`for (`, `if (`). */
const CONTROL = /^(?:if|for|while|switch|catch|return|else|do|new|await|yield|throw|typeof|case|sizeof|elif|with|match|loop|select|defer|go)$/;

/** A line that starts a function: `fn`/`func`/`def`/`function`, or a C-like `Type name(` whose name is not a control word. */
function isFunctionHeader(line: string, python: boolean): boolean {
  if (/\b(?:fn|func|def|function)\b[^(]*\(/.test(line)) return true;
  if (python) return false; // only `def` starts one (`assert (…)` is no C-like header)
  const m = /^\s*(?:public|private|protected|static|\w+\s+)*[\w<>[\],\s]+\s+(\w+)\s*\([^;]*$/.exec(line);
  return !!m && !CONTROL.test(m[1]) && !CONTROL.test(line.trim().split(/\W/)[0]);
}

function lexicalNamesAt(code: string, cursor: number, python: boolean): Set<string> {
  const out = new Set<string>();
  const before = code.slice(0, cursor);
  const lines = before.split('\n');
  const cursorIndent = (lines[lines.length - 1].match(/^\s*/)?.[0].length ?? 0);
  let start = 0;
  for (let i = lines.length - 2; i >= 0; i--) {
    const l = lines[i];
    const indent = l.match(/^\s*/)![0].length;
    if (isFunctionHeader(l, python) && (indent < cursorIndent || l.trim() === lines[lines.length - 1].trim() || cursorIndent === 0)) { start = i; break; }
  }
  const addNames = (text: string) => {
    for (const m of text.matchAll(NAME)) if (!/[.]\s*$|::\s*$/.test(text.slice(Math.max(0, m.index! - 3), m.index!))) out.add(m[0]);
  };
  addNames(lines.slice(start).join('\n'));
  for (const l of code.split('\n')) {
    if (/^(?:pub(?:\([\w:]+\))?\s+)?(?:use|mod|fn|struct|enum|trait|type|const|static|impl|macro_rules!|func|var|import|from|def|package|class|interface|record|extern|unsafe|async)\b/.test(l)) addNames(l);
    else if (python && /^[A-Za-z_]\w*(?:\s*,\s*[A-Za-z_]\w*)*\s*(?::[^=]*)?=(?!=)/.test(l)) addNames(l.slice(0, l.search(/[:=]/))); // a module-level assignment
    else if (/^\s+"[^"]+"\s*$|^\s+\w+\s+"[^"]+"\s*$/.test(l)) addNames(l); // a Go import block's lines
  }
  return out;
}
