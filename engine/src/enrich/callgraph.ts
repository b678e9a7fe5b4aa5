// CoRet's enrichment: a chunk is indexed with its file path in front and the signatures of the
// repository functions it calls (its downstream call-graph neighbours) behind, so a query that
// mentions what a function *does through its callees* still finds it. Calls resolve through the
// file's imports where the grammar gave them, otherwise by name when the name is unambiguous.
import * as path from 'path';
import type { ImportBinding } from '../types';
import { DefinitionTable, type DefinitionRef } from './definitionTable';
import { languageImportMatches } from './imports';

export { DefinitionTable, type DefinitionRef };

export interface EnrichOptions {
  /** At most this many callee signatures per chunk. Default 8. */
  maxCallees?: number;
  /** At most this many characters of appended signatures. Default 600. */
  maxChars?: number;
  /** A name defined in more places than this is not resolved by name alone. Default 3. */
  maxAmbiguity?: number;
}

/** Marker in front of each appended callee signature (also tells readers it is not file text). */
export const CALLEE_MARKER = '# calls: ';

/** Whether the import specifier `source`, written in `fromFile`, plausibly names `targetFile`. */
export function importMatches(fromFile: string, source: string, targetFile: string): boolean {
  // Go, Java, Rust, C/C++ (enrich/imports.ts).
  const byLanguage = languageImportMatches(fromFile, source, targetFile);
  if (byLanguage !== undefined) return byLanguage;
  const noExt = targetFile.replace(/\.[^./]+$/, '');
  if (source.startsWith('.') && !/^\.+[A-Za-z_]/.test(source)) {
    // Relative path import (TS/JS): './util' from src/a.ts -> src/util(.ts|/index.ts)
    const resolved = path.posix.normalize(path.posix.join(path.posix.dirname(fromFile), source));
    return noExt === resolved || noExt === `${resolved}/index`;
  }
  // Dotted module (Python): 'pkg.sub.mod' or relative '.mod' / '..pkg.mod'.
  const dotted = source.replace(/^\.+/, '').split('.').filter(Boolean).join('/');
  if (!dotted) return false;
  return noExt === dotted || noExt.endsWith(`/${dotted}`) || noExt.endsWith(`/${dotted}/__init__`) || noExt === `${dotted}/__init__`;
}

/** Resolves the calls of one chunk to definitions elsewhere in the repository. */
export function resolveCallees(
  file: string,
  calls: readonly string[],
  imports: readonly ImportBinding[],
  table: DefinitionTable,
  selfNames: ReadonlySet<string>,
  opts: EnrichOptions = {},
): DefinitionRef[] {
  const maxCallees = opts.maxCallees ?? 8;
  const maxAmbiguity = opts.maxAmbiguity ?? 3;
  const out: DefinitionRef[] = [];
  const seen = new Set<string>();
  for (const call of calls) {
    if (out.length >= maxCallees) break;
    if (selfNames.has(call) || seen.has(call)) continue;
    const imp = imports.find((i) => i.local === call);
    const importedName = imp && imp.imported !== 'default' && imp.imported !== '*' ? imp.imported : call;
    const candidates = table.count(importedName);
    if (!candidates) continue;
    let chosen: DefinitionRef | undefined;
    if (imp) chosen = table.first(importedName, (f) => importMatches(file, imp.source, f));
    if (!chosen) chosen = table.first(importedName, undefined, file);
    if (!chosen && candidates <= maxAmbiguity) chosen = table.first(importedName, undefined);
    if (!chosen) continue;
    seen.add(call);
    out.push(chosen);
  }
  return out;
}

/** The text the indexes see for a chunk: path prefix, code, then callee signatures (bounded). */
export function enrichedText(file: string, code: string, callees: readonly DefinitionRef[], opts: EnrichOptions = {}): string {
  const maxChars = opts.maxChars ?? 600;
  let tail = '';
  for (const c of callees) {
    const line = `\n${CALLEE_MARKER}${c.signature.replace(/\s+/g, ' ').slice(0, 200)}`;
    if (tail.length + line.length > maxChars) break;
    tail += line;
  }
  return `# file: ${file}\n${code}${tail}`;
}
