// How a name appears in code, for the hover and Find Related Code (one definition for both, so a
// row and a hover line agree on "calls it" / "uses it"). No `vscode` import.

export interface NamePatterns {
  /** The name as a whole word (not part of a longer identifier). */
  word: RegExp;
  /** The name called: `name(`, `name<T>(`. */
  call: RegExp;
  /**
   * A line that declares the name (`def name(`, `function name(`, `class name`, a method
   * `name(args) {`): a declaration, never a call.
   */
  declares: RegExp;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export function namePatterns(name: string): NamePatterns {
  const n = escapeRegExp(name);
  return {
    word: new RegExp(`(^|[^\\w$])${n}(?![\\w$])`),
    call: new RegExp(`(^|[^\\w$])${n}\\s*(<[^>]*>)?\\(`),
    declares: new RegExp(
      `^\\s*(export\\s+)?(default\\s+)?(async\\s+)?((def|function\\*?|class|interface|type|enum|fn|func|struct|trait)\\s+${n}(?![\\w$])` +
      `|((public|private|protected|static|readonly|override|abstract|get|set)\\s+)*${n}\\s*(<[^>]*>)?\\([^)]*\\)?\\s*(:[^={]*)?\\{\\s*$)`,
    ),
  };
}

/** Longer sub-words of a name (`retrieve_timesteps` -> retrieve, timesteps; `httpBatchLink` -> batch, link). */
export function subWords(name: string): string[] {
  return name.split(/_|(?<=[a-z0-9])(?=[A-Z])/).filter((w) => w.length >= 4).map((w) => w.toLowerCase());
}
