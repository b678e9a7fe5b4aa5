// The completion check's view of C and C++ includes (complete/vetter.ts), over includes.ts's
// include graph.
import { RecentMap } from '../util/recentMap';
import { IncludeResolver, includeSpecs, type IncludeSource } from './includes';

/** Files whose included names are kept (the few being typed in). */
const INCLUDED_CACHE = 32;

/**
 * Per file, the names its include graph defines, worked out once per set of `#include` lines and
 * dropped when a file of that graph changes, so a keystroke costs a lookup.
 */
export class IncludedNames {
  private readonly resolver: IncludeResolver;
  private readonly cache = new RecentMap<string, { includes: string; names: ReadonlySet<string>; files: Set<string> }>(INCLUDED_CACHE);

  constructor(src: IncludeSource) {
    this.resolver = new IncludeResolver(src);
  }

  /** The names `file`'s includes define, or undefined when they could not all be read by `deadline`. */
  async of(file: string, text: string, deadline: number): Promise<ReadonlySet<string> | undefined> {
    const includes = includeSpecs(text).join('\n');
    const hit = this.cache.get(file);
    if (hit?.includes === includes) return hit.names;
    const found = await this.resolver.includedNames(file, text, deadline);
    if (!found) return undefined;
    this.cache.set(file, { includes, names: found.names, files: found.files });
    return found.names;
  }

  /** A file or folder changed or left ('': anything may have): the graphs that read it are read again. */
  changed(file: string): void {
    const under = file + '/';
    this.cache.deleteWhere((e) => !file || e.files.has(file) || [...e.files].some((f) => f.startsWith(under)));
  }

  dispose(): void {
    this.cache.clear();
    this.resolver.dispose();
  }
}
