// The detection rules: gitleaks' default config (vendored in gitleaks/, converted by
// scripts/gitleaks-rules.mjs) compiled to JavaScript, with its keyword pre-filter, entropy
// thresholds and allowlists, plus the few rules of our own in extraRules.ts. A gitleaks rule that
// cannot be compiled is listed in `skippedRules` with the reason (test/unit/redactRules.test.ts).
import gitleaks from './gitleaks/rules.json';
import { goRegexToJs, UnsupportedRegex } from './goRegex';

export interface Allowlist {
  target: 'secret' | 'match' | 'line';
  regexes: RegExp[];
  /** Lower-case; a secret containing one is allowed. */
  stopwords: string[];
  paths: RegExp[];
  /** Every configured criterion must hold (gitleaks `condition = "AND"`), else any one. */
  all: boolean;
}

export interface Rule {
  id: string;
  /** Global, with indices (`gd`); run over windows of the text (redactor.ts). */
  re: RegExp;
  /** Lower-case; the rule runs only when the lower-cased text contains one (none: always). */
  keywords: string[];
  /** The secret's Shannon entropy must exceed this (gitleaks' `entropy`). */
  entropy?: number;
  /** Only files whose path matches (when the path is known). */
  path?: RegExp;
  allowlists: Allowlist[];
  /** The secret must contain a digit (gitleaks' rule for `generic*` ids). */
  needsDigit?: boolean;
  /** A further check of our own (extraRules.ts): false drops the finding. */
  accept?: (secret: string) => boolean;
  /** Runs over the whole text rather than bounded windows (its matches may be longer than a window). */
  wholeText?: boolean;
  /** Up to this many `[\w.-]` characters before a match belong to it (the lead gitleaks' regex has and `re` leaves out). */
  lead?: number;
}

interface RawAllowlist {
  condition?: string;
  regexTarget?: string;
  regexes?: string[];
  stopwords?: string[];
  paths?: string[];
}

interface RawRule {
  id: string;
  regex?: string;
  path?: string;
  entropy?: number;
  secretGroup?: number;
  keywords?: string[];
  allowlists?: RawAllowlist[];
}

const compile = (go: string, flags = ''): RegExp => new RegExp(goRegexToJs(go), flags);

function allowlist(a: RawAllowlist): Allowlist {
  const target = a.regexTarget === 'match' || a.regexTarget === 'line' ? a.regexTarget : 'secret';
  return {
    target, all: a.condition === 'AND',
    regexes: (a.regexes ?? []).map((r) => compile(r)),
    stopwords: (a.stopwords ?? []).map((s) => s.toLowerCase()),
    paths: (a.paths ?? []).map((p) => compile(p)),
  };
}

let globalAllowlist: Allowlist | undefined;
/** The global allowlist's content criteria (its paths are not applied: a secret is removed wherever it lies). */
export const GLOBAL_ALLOWLIST = (): Allowlist => (globalAllowlist ??= { ...allowlist(gitleaks.allowlist as RawAllowlist), paths: [] });

export const UPSTREAM = gitleaks.upstream;

const LEAD = '[\\w.-]{0,50}?';

/**
 * Most rules start with up to 50 identifier characters matched lazily (twice in some), which only
 * widen the match leftwards: a backtracking engine would try every length at every position. The
 * lead is left out of the regex and put back by extending the match (for `match` allowlists).
 */
function stripLead(go: string): { go: string; lead: number } {
  const flags = go.startsWith('(?i)') ? '(?i)' : '';
  let rest = go.slice(flags.length);
  let lead = 0;
  if (rest.startsWith(LEAD)) { rest = rest.slice(LEAD.length); lead += 50; }
  if (rest.startsWith(`(?i:${LEAD}`)) { rest = `(?i:${rest.slice(4 + LEAD.length)}`; lead += 50; }
  return { go: flags + rest, lead };
}

/**
 * Checks of our own on top of a gitleaks rule, where it has no entropy threshold and takes code for a
 * password: database-password matches `pwd->username` and `pwd: string` in C and TypeScript.
 */
const OWN_CHECKS: Record<string, (secret: string) => boolean> = { 'database-password': (v) => v.length >= 6 && /\d/.test(v) && /[A-Za-z]/.test(v) };

/** Keywords for rules that have none but need a literal anyway (so they do not run on every text). */
const DERIVED_KEYWORDS: Record<string, string[]> = { 'database-password': ['pwd', 'db_passw', 'database_passw'] };

/** What is converted and compiled on first use: most texts wake a handful of rules, and an engine starts faster. */
interface Compiled {
  re: RegExp;
  path?: RegExp;
  allowlists: Allowlist[];
}

const NEVER = /(?!)/dg;

/** A gitleaks rule; its regexes are converted when a text first holds one of its keywords. */
class GitleaksRule implements Rule {
  readonly id: string;
  readonly keywords: string[];
  readonly entropy?: number;
  readonly lead: number;
  readonly needsDigit: boolean;
  readonly accept?: (secret: string) => boolean;
  /** Its matches run from BEGIN to END and may exceed a window; the lazy body stops at the first END. */
  readonly wholeText: boolean;
  readonly hasPath: boolean;
  private compiled?: Compiled;
  private readonly go: string;

  constructor(private readonly raw: RawRule) {
    if (!raw.regex) throw new UnsupportedRegex('matches file paths only, not content');
    if (raw.secretGroup) throw new UnsupportedRegex('secretGroup is not supported');
    const { go, lead } = stripLead(raw.regex);
    this.id = raw.id;
    this.go = go;
    this.lead = lead;
    this.keywords = (raw.keywords ?? DERIVED_KEYWORDS[raw.id] ?? []).map((k) => k.toLowerCase());
    this.entropy = raw.entropy;
    this.needsDigit = raw.id.startsWith('generic');
    this.accept = OWN_CHECKS[raw.id];
    this.wholeText = raw.id === 'private-key';
    this.hasPath = raw.path !== undefined;
  }

  private get parts(): Compiled {
    if (!this.compiled) {
      try {
        this.compiled = { re: compile(this.go, 'gd'), path: this.raw.path ? compile(this.raw.path) : undefined, allowlists: (this.raw.allowlists ?? []).map(allowlist) };
      } catch (err) {
        if (!(err instanceof UnsupportedRegex) && !(err instanceof SyntaxError)) throw err;
        skippedRules.push({ id: this.id, reason: err.message });
        this.compiled = { re: NEVER, allowlists: [] }; // never matches: listed as skipped instead
      }
    }
    return this.compiled;
  }

  get re(): RegExp {
    return this.parts.re;
  }

  get path(): RegExp | undefined {
    return this.hasPath ? this.parts.path : undefined;
  }

  get allowlists(): Allowlist[] {
    return this.parts.allowlists;
  }
}

/** Every gitleaks rule with content to match, in the config's order. */
export const GITLEAKS_RULES: Rule[] = [];
/** gitleaks rules left out, with why (a rule whose regex cannot be converted joins when first used; compileAll lists all). */
export const skippedRules: Array<{ id: string; reason: string }> = [];

for (const raw of gitleaks.rules as RawRule[]) {
  try {
    GITLEAKS_RULES.push(new GitleaksRule(raw));
  } catch (err) {
    if (!(err instanceof UnsupportedRegex)) throw err;
    skippedRules.push({ id: raw.id, reason: err.message });
  }
}

/** Converts and compiles every rule now (tests, the refresh check); returns the rules left out. */
export function compileAll(): Array<{ id: string; reason: string }> {
  for (const r of GITLEAKS_RULES) void r.re;
  return skippedRules;
}

/** The rule family of a gitleaks rule id: its provider, the id's first word (130 in the vendored config). */
export const ruleFamily = (id: string): string => id.split('-')[0];
