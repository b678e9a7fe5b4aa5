// RetrieveOptions.files: only chunks of files matching a gitignore-style glob and/or of one
// language (the agent tools' search_code filters). Applied inside the signals' top-k (their
// `accept`), so a narrow filter still fills k, which filtering the ranked list afterwards does not.
import { languageOfPath } from '../chunk/languages';
import { createMatcher } from '../scan/ignoreRules';
import type { FileFilter } from '../api';

export type { FileFilter } from '../api';

/** A predicate over workspace-relative paths (decisions cached per path); throws when the glob cannot be used. */
export function fileFilter(filter: FileFilter): (file: string) => boolean {
  const rules = filter.glob === undefined ? undefined : createMatcher([filter.glob], 'glob');
  if (rules?.warnings.length) throw new Error(rules.warnings[0]);
  const decided = new Map<string, boolean>();
  return (file) => {
    let ok = decided.get(file);
    if (ok === undefined) {
      ok = (!rules || rules.ignores(file)) && (filter.language === undefined || languageOfPath(file) === filter.language);
      decided.set(file, ok);
    }
    return ok;
  };
}
