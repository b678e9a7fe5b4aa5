// Code-aware tokenisation for the lexical index: identifiers are split into their sub-tokens
// (camelCase, PascalCase, snake_case, digits) and the whole identifier is kept as well, so that
// `parseConfigFile` meets both `parse_config` and `ConfigFile`.

const IDENT = /[A-Za-z_$][A-Za-z0-9_$]*|\d+(?:\.\d+)?/g;
/** Sub-token boundaries: `fooBar`, `FOOBar`, `foo_bar`, `foo2bar`. */
export const SUBTOKEN = /[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+/g;

/** Sub-tokens shorter than this are dropped (they carry no meaning: `x`, `i`). */
const MIN_SUBTOKEN = 2;

/** Splits one identifier into lower-cased sub-tokens (`HTTPServerError` → http, server, error). */
export function splitIdentifier(ident: string): string[] {
  const parts = ident.match(SUBTOKEN);
  if (!parts) return [];
  const out: string[] = [];
  for (const p of parts) if (p.length >= MIN_SUBTOKEN) out.push(p.toLowerCase());
  return out;
}

/** Identifiers as written (no splitting), in order of appearance. */
export function identifiers(text: string): string[] {
  return text.match(IDENT) ?? [];
}

/**
 * Lexical terms of a text: for each identifier its lower-cased sub-tokens, plus the whole
 * lower-cased identifier when it has more than one sub-token. Numbers are kept whole.
 */
export function lexicalTerms(text: string): string[] {
  const out: string[] = [];
  IDENT.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = IDENT.exec(text)) !== null) {
    const ident = m[0];
    const c = ident.charCodeAt(0);
    if (c >= 48 && c <= 57) {
      out.push(ident);
      continue;
    }
    const subs = splitIdentifier(ident);
    for (const s of subs) out.push(s);
    if (subs.length > 1) out.push(ident.toLowerCase());
    else if (subs.length === 0 && ident.length >= MIN_SUBTOKEN) out.push(ident.toLowerCase());
  }
  return out;
}

/** Term → count. */
export function termCounts(terms: string[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const t of terms) m.set(t, (m.get(t) ?? 0) + 1);
  return m;
}
