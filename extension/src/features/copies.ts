// Near-duplicate retrieved chunks (vendored or `# Copied from` copies of one function) collapsed
// into one entry with its copies, for the hover and Find Related Code. No `vscode` import: unit-tested.

/** Two chunks are copies when this share of their (normalised, non-trivial) lines is common to both. */
const SHARED_LINES = 0.8;
/** Chunks with fewer distinct lines than this are only copies when their normalised text is equal. */
const MIN_LINES_FOR_OVERLAP = 3;

export interface CopyGroup<T> {
  /** The entry shown: the copy without a `Copied from` note if any, else the best ranked. */
  first: T;
  /** The others, in rank order. */
  copies: T[];
}

const COMMENT_ONLY = /^(#|\/\/|\/\*|\*|--|<!--)/;

/** The lines of code that make a chunk what it is: comments, blank lines and indentation dropped, whitespace collapsed. */
export function codeLines(text: string): string[] {
  const out: string[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.trim().replace(/\s+/g, ' ');
    if (!line || line === '…' || COMMENT_ONLY.test(line)) continue;
    out.push(line);
  }
  return out;
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
 * Groups ranked items whose text is the same once normalised, or shares nearly all lines; groups
 * keep the rank of their best item. `textOf` gives an item's code.
 */
export function groupCopies<T>(items: readonly T[], textOf: (item: T) => string): Array<CopyGroup<T>> {
  const groups: Array<{ members: T[]; lines: string[]; set: Set<string> }> = [];
  for (const item of items) {
    const lines = codeLines(textOf(item));
    const set = new Set(lines);
    const group = lines.length ? groups.find((g) => similar(g.lines, lines, g.set, set)) : undefined;
    if (group) group.members.push(item);
    else groups.push({ members: [item], lines, set });
  }
  return groups.map(({ members }) => {
    const original = members.find((m) => !isMarkedCopy(textOf(m))) ?? members[0];
    return { first: original, copies: members.filter((m) => m !== original) };
  });
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
