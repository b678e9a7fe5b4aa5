// Near-duplicate retrieved chunks (vendored or `# Copied from` copies of one function) collapsed
// into one entry with its copies, for the hover and Find Related Code. No `vscode` import: unit-tested.
import { codeLines } from '../../../engine/src/public';

export { codeLines };

/** Two chunks are copies when this share of their (normalised, non-trivial) lines is common to both. */
const SHARED_LINES = 0.8;
/** Chunks with fewer distinct lines than this are only copies when their normalised text is equal. */
const MIN_LINES_FOR_OVERLAP = 3;

export interface CopyGroup<T> {
  /** The entry shown: the one `prefer` ranks first, else the copy without a `Copied from` note, else the best ranked. */
  first: T;
  /** The others, in rank order. */
  copies: T[];
}

/** Whether a chunk says it is a copy of another (diffusers' `# Copied from`, "copied from" notes). */
export function isMarkedCopy(text: string): boolean {
  return /^\s*(#|\/\/|\*|\/\*)\s*copied from\b/im.test(text);
}

function similar(a: string[], b: string[], aSet: Set<string>, bSet: Set<string>): boolean {
  if (a.join('\n') === b.join('\n')) return true;
  if (aSet.size < MIN_LINES_FOR_OVERLAP || bSet.size < MIN_LINES_FOR_OVERLAP) return false;
  let shared = 0;
  for (const l of aSet) if (bSet.has(l)) shared++;
  return shared / Math.max(aSet.size, bSet.size) >= SHARED_LINES;
}

/**
 * Groups ranked items whose text is the same once normalised, or shares nearly all lines under the
 * same first line (a different function is never a copy); groups keep the rank of their best item.
 * `textOf` gives an item's code; `prefer` orders a group's members for the one shown (lower first).
 */
export function groupCopies<T>(items: readonly T[], textOf: (item: T) => string, prefer?: (item: T) => number[]): Array<CopyGroup<T>> {
  const groups: Array<{ members: T[]; lines: string[]; set: Set<string> }> = [];
  for (const item of items) {
    const lines = codeLines(textOf(item));
    const set = new Set(lines);
    const group = lines.length ? groups.find((g) => g.lines[0] === lines[0] && similar(g.lines, lines, g.set, set)) : undefined;
    if (group) group.members.push(item);
    else groups.push({ members: [item], lines, set });
  }
  return groups.map(({ members }) => {
    const keyed = members.map((m, i) => ({ m, key: [...(prefer?.(m) ?? []), isMarkedCopy(textOf(m)) ? 1 : 0, i] }));
    keyed.sort((a, b) => compareKeys(a.key, b.key));
    const original = keyed[0].m;
    return { first: original, copies: members.filter((m) => m !== original) };
  });
}

function compareKeys(a: number[], b: number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i] - b[i];
  return a.length - b.length;
}

const SET_ASIDE = /(^|\/)(examples?|samples?|demos?|tests?|__tests__|spec|vendor|vendored|third_party|third-party|external|node_modules|fixtures?|community|contrib|scripts?|docs?)\//i;

/** Whether a path lies in examples, tests, vendored or other set-aside folders. */
export function isSetAside(path: string): boolean {
  return SET_ASIDE.test(path) || isTestFile(path);
}

/** How many leading directories two paths share (the same file counts one more). */
export function pathNearness(a: string, b: string): number {
  if (a === b) return Number.MAX_SAFE_INTEGER;
  const x = a.split('/');
  const y = b.split('/');
  let n = 0;
  while (n < Math.min(x.length, y.length) - 1 && x[n] === y[n]) n++;
  return n;
}

/**
 * The order among copies for the one shown (issue 29): the copy this file's import or call
 * resolves to (`resolved`), else the nearest to `rel` by path, else one outside examples, tests
 * and vendored folders.
 */
export function copyPreference<T extends { file: string; startLine: number; endLine: number }>(rel: string, resolved?: { file: string; declLine: number }): (item: T) => number[] {
  return (c) => [
    resolved && c.file === resolved.file && c.startLine <= resolved.declLine && resolved.declLine <= c.endLine ? 0 : 1,
    -pathNearness(c.file, rel),
    isSetAside(c.file) ? 1 : 0,
  ];
}

const DOC_FILE = /\.(md|mdx|markdown|rst|txt|adoc|asciidoc|org|ipynb)$/i;

/** Whether a path is prose documentation rather than code. */
export function isDocFile(path: string): boolean {
  return DOC_FILE.test(path);
}

const TEST_FILE = /(^|\/)(tests?|__tests__|spec)\/|[._-](test|spec)\.[a-z]+$|(^|\/)test_[^/]+\.py$/i;

/** Whether a path is a test file. */
export function isTestFile(path: string): boolean {
  return TEST_FILE.test(path);
}

const DATA_FILE = /\.(ya?ml|json|jsonc|json5|toml|lock|ini|cfg|conf|properties|xml|plist|csv|tsv|env|sum)$|(^|\/)(\.[a-z]+rc|Dockerfile|Makefile|requirements[^/]*\.txt|setup\.cfg)$/i;

/** Whether a path is configuration or data (YAML, JSON, TOML, lock files, ...) rather than code. */
export function isDataFile(path: string): boolean {
  return DATA_FILE.test(path);
}
