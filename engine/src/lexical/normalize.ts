// RETROcode's variable-name normalisation: names the code binds itself (parameters, assigned or
// declared variables, loop variables) become one placeholder, so `for user in users: total +=
// user.age` and `for p in people: s += p.age` share their structure. Structure is indexed as
// token trigrams of the normalised sequence; names the code does not bind (APIs, attributes,
// called functions) stay, lower-cased, since they are what the next line needs.

export const TOKEN = /[A-Za-z_$][A-Za-z0-9_$]*|\d+|[^\sA-Za-z0-9_$]/g;
const BINDERS: RegExp[] = [
  /\b([A-Za-z_$][\w$]*)\s*(?:,\s*[A-Za-z_$][\w$]*\s*)*(?::[^=\n]*)?[-+*/%&|^]?=(?![=>])/g, // x = … / x: T = … / a, b = … / x += …
  /\b(?:let|const|var)\s+([A-Za-z_$][\w$]*)/g,
  /\bfor\s*\(?\s*(?:let|const|var)?\s*([A-Za-z_$][\w$]*)\s+(?:in|of)\b/g,
  /\bas\s+([A-Za-z_$][\w$]*)/g,
];
const PARAMS = /\b(?:def|function)\s*[A-Za-z_$]*\s*\(([^)]*)\)|\(([^()]*)\)\s*=>|\blambda\s+([^:]*):/g;
const KEYWORDS = new Set([
  'self', 'this', 'cls', 'true', 'false', 'none', 'null', 'undefined', 'return', 'if', 'else', 'for', 'while', 'in', 'of',
  'def', 'class', 'function', 'const', 'let', 'var', 'import', 'from', 'new', 'await', 'async', 'yield', 'not', 'and', 'or',
]);

/** Names bound by the code itself. */
export function boundNames(code: string): Set<string> {
  const out = new Set<string>();
  for (const re of BINDERS) for (const m of code.matchAll(re)) if (!KEYWORDS.has(m[1].toLowerCase())) out.add(m[1]);
  for (const m of code.matchAll(PARAMS)) {
    const list = m[1] ?? m[2] ?? m[3] ?? '';
    for (const p of list.split(',')) {
      const name = p.trim().replace(/^[*.]+/, '').match(/^[A-Za-z_$][\w$]*/)?.[0];
      if (name && !KEYWORDS.has(name.toLowerCase())) out.add(name);
    }
  }
  return out;
}

/** Trigrams of the normalised token sequence (placeholder `_v` for bound names). */
export function normalizedTerms(code: string, bound: Set<string> = boundNames(code)): string[] {
  const toks = (code.match(TOKEN) ?? []).filter((t) => t !== ',' && t !== ';').map((t) => (bound.has(t) ? '_v' : t.toLowerCase()));
  const out: string[] = [];
  for (let i = 0; i + 2 < toks.length; i++) {
    // A trigram of placeholders and punctuation alone says nothing.
    if (![toks[i], toks[i + 1], toks[i + 2]].some((t) => t !== '_v' && /[a-z]/.test(t))) continue;
    out.push(`${toks[i]} ${toks[i + 1]} ${toks[i + 2]}`);
  }
  return out;
}
