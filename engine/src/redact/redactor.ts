// Secret redaction, for the index (engine/src/indexer/documents.ts: the placeholder is indexed, never
// the secret) and for every request to a model server (the extension's backends). Detection is
// gitleaks' default rule set plus a few rules of our own (rules.ts, extraRules.ts): keywords first
// (one pass, keywords.ts), then each rule's regex over windows of at most WINDOW characters so no
// regex backtracks over a whole minified file, then gitleaks' entropy thresholds and allowlists.
// A secret becomes `<redacted:rule-id>`; the newlines it spanned stay, so line numbers never move.
import { isProtocolNonce, mayBeDerived, secretContext, type SecretContext } from './derived';
import { entropy } from './entropy';
import { EXTRA_RULES } from './extraRules';
import { KeywordIndex } from './keywords';
import { GITLEAKS_RULES, GLOBAL_ALLOWLIST, type Allowlist, type Rule } from './rules';

export interface Finding {
  rule: string;
  /** The secret's span in the text (a rule's first non-empty group, else its whole match). */
  start: number;
  end: number;
}

export interface Redaction {
  text: string;
  /** What was replaced, one entry per secret: the rule id, e.g. `github-pat`. */
  kinds: string[];
}

export const placeholder = (kind: string): string => `<redacted:${kind}>`;

/** Characters per regex evaluation; consecutive windows overlap by OVERLAP so a secret on a boundary is whole in one. */
export const WINDOW = 4096;
const OVERLAP = 1024;

const RULES: readonly Rule[] = [...GITLEAKS_RULES, ...EXTRA_RULES];

interface KeywordFilter {
  index: KeywordIndex;
  /** Per rule, the ids of its keywords in `index`. */
  ofRule: number[][];
}
let keywordFilter: KeywordFilter | undefined;

/** Built on first use, not when the engine loads. */
function keywords(): KeywordFilter {
  if (!keywordFilter) {
    const words = [...new Set(RULES.flatMap((r) => r.keywords))];
    const id = new Map(words.map((w, i) => [w, i]));
    keywordFilter = { index: new KeywordIndex(words), ofRule: RULES.map((r) => r.keywords.map((k) => id.get(k)!)) };
  }
  return keywordFilter;
}

const LEAD_CHAR = /[\w.-]/;

function lineAround(text: string, start: number, end: number): string {
  const from = text.lastIndexOf('\n', start - 1) + 1;
  const to = text.indexOf('\n', end);
  return text.slice(from, to < 0 ? text.length : to);
}

interface Candidate {
  secret: string;
  match: string;
  line: () => string;
  path?: string;
}

function allowedBy(a: Allowlist, c: Candidate): boolean {
  const target = a.target === 'match' ? c.match : a.target === 'line' ? c.line() : c.secret;
  const checks: boolean[] = [];
  if (a.paths.length) checks.push(c.path !== undefined && a.paths.some((p) => p.test(c.path!)));
  if (a.regexes.length) checks.push(a.regexes.some((r) => r.test(target)));
  if (a.stopwords.length) {
    const lower = c.secret.toLowerCase();
    checks.push(a.stopwords.some((w) => lower.includes(w)));
  }
  return checks.length > 0 && (a.all ? checks.every(Boolean) : checks.some(Boolean));
}

function accepted(rule: Rule, c: Candidate): boolean {
  if (rule.entropy !== undefined && entropy(c.secret) <= rule.entropy) return false;
  if (rule.needsDigit && !/\d/.test(c.secret)) return false;
  if (rule.accept && !rule.accept(c.secret)) return false;
  if (c.secret.includes('<redacted:')) return false;
  if (isProtocolNonce(c.secret, c.line())) return false;
  return !allowedBy(GLOBAL_ALLOWLIST(), c) && !rule.allowlists.some((a) => allowedBy(a, c));
}

/** The rule's findings in text[from, to), as offsets in `text`. */
function scan(rule: Rule, text: string, from: number, to: number, path: string | undefined, out: Finding[]): void {
  const window = from === 0 && to === text.length ? text : text.slice(from, to);
  for (const m of window.matchAll(rule.re)) {
    if (!m[0]) continue;
    const indices = m.indices!;
    let g = 1;
    while (g < m.length && !m[g]) g++;
    const [s, e] = g < m.length ? indices[g]! : indices[0];
    let matchStart = from + indices[0][0];
    for (let n = rule.lead ?? 0; n > 0 && matchStart > 0 && LEAD_CHAR.test(text[matchStart - 1]); n--) matchStart--;
    const matchEnd = from + indices[0][1];
    const c: Candidate = { secret: text.slice(from + s, from + e), match: text.slice(matchStart, matchEnd), line: () => lineAround(text, matchStart, matchEnd), path };
    if (accepted(rule, c)) out.push({ rule: rule.id, start: from + s, end: from + e });
  }
}

/** Every rule's findings in `text`, derivable values included. */
function findAll(text: string, path: string | undefined): Finding[] {
  const out: Finding[] = [];
  if (!text) return out;
  const filter = keywords();
  const present = filter.index.present(text);
  RULES.forEach((rule, r) => {
    const ids = filter.ofRule[r];
    if (ids.length && !ids.some((k) => present[k])) return;
    if (rule.path && (path === undefined || !rule.path.test(path))) return;
    if (rule.wholeText || text.length <= WINDOW) return scan(rule, text, 0, text.length, path, out);
    for (let from = 0; ; from += WINDOW - OVERLAP) {
      const to = Math.min(text.length, from + WINDOW);
      scan(rule, text, from, to, path, out);
      if (to === text.length) break;
    }
  });
  return out;
}

/**
 * Every secret in `text`; `path` (relative, `/`-separated) enables the rules restricted to some files
 * (none without it); `context` is the whole text `text` was cut from (default: `text`), whose own
 * literals may make a value derivable and so no secret (derived.ts).
 */
export function findSecrets(text: string, path?: string, context?: SecretContext): Finding[] {
  const found = findAll(text, path);
  if (!found.some((f) => mayBeDerived(text.slice(f.start, f.end)))) return found;
  const judge = context ?? secretContext(() => text, () => found);
  return found.filter((f) => {
    const value = text.slice(f.start, f.end);
    return !mayBeDerived(value) || !judge.derives(value);
  });
}

/** The context for redacting the parts of a file (its text, `string` or built on first need) one by one. */
export const redactionContext = (text: string | (() => string), path?: string): SecretContext =>
  secretContext(typeof text === 'string' ? () => text : text, (t) => findAll(t, path));

/** Spans sorted and merged (overlapping findings become one, named by the first). */
function merged(findings: Finding[]): Finding[] {
  const sorted = [...findings].sort((a, b) => a.start - b.start || b.end - a.end);
  const out: Finding[] = [];
  for (const f of sorted) {
    const last = out[out.length - 1];
    if (last && f.start < last.end) last.end = Math.max(last.end, f.end);
    else out.push({ ...f });
  }
  return out;
}

/** `text` with every secret replaced by its placeholder; the line breaks inside a secret are kept. */
export function redactSecrets(text: string, path?: string, context?: SecretContext): Redaction {
  const spans = merged(findSecrets(text, path, context));
  if (!spans.length) return { text, kinds: [] };
  let out = '';
  let at = 0;
  for (const f of spans) {
    const breaks = text.slice(f.start, f.end).match(/\r\n|\r|\n/g)?.join('') ?? '';
    out += text.slice(at, f.start) + placeholder(f.rule) + breaks;
    at = f.end;
  }
  return { text: out + text.slice(at), kinds: spans.map((f) => f.rule) };
}

/** A copy of a JSON-like value with every string redacted; `kinds` collects what was replaced. */
export function redactDeep<T>(value: T, kinds: string[] = []): T {
  if (typeof value === 'string') {
    const r = redactSecrets(value);
    kinds.push(...r.kinds);
    return r.text as T;
  }
  if (Array.isArray(value)) return value.map((v) => redactDeep(v, kinds)) as T;
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) out[k] = redactDeep(v, kinds);
    return out as T;
  }
  return value;
}
