// Small completion cache plus "typed-through" reuse: when the user types the first characters of
// the ghost text, the rest is served without asking the engine again. vscode-free.

export interface CachedCompletion<T> {
  /** Document key (uri) + the text around the cursor the completion was computed for. */
  docKey: string;
  prefix: string;
  suffix: string;
  text: string;
  meta: T;
  /** Cursor offset in the document, when known: the prefix handed in is a window that slides as the user types. */
  offset?: number;
}

/** Characters of left context that identify a cache entry (a longer prefix rarely changes the answer). */
const PREFIX_KEY_CHARS = 2000;
const SUFFIX_KEY_CHARS = 200;

export class CompletionCache<T> {
  private readonly entries = new Map<string, CachedCompletion<T>>();
  private last: CachedCompletion<T> | undefined;

  constructor(private readonly capacity = 64) {}

  private key(docKey: string, prefix: string, suffix: string): string {
    return `${docKey}\u0000${prefix.slice(-PREFIX_KEY_CHARS)}\u0000${suffix.slice(0, SUFFIX_KEY_CHARS)}`;
  }

  /**
   * An exact hit, or the remainder of the last completion when the user typed into it. With
   * `offset` (the cursor's offset in the document) a capped prefix window that slid forward as the
   * user typed still matches; without it the new prefix must extend the old one.
   */
  get(docKey: string, prefix: string, suffix: string, offset?: number): { text: string; meta: T } | undefined {
    const k = this.key(docKey, prefix, suffix);
    const hit = this.entries.get(k);
    if (hit) {
      this.entries.delete(k); // refresh LRU position
      this.entries.set(k, hit);
      return { text: hit.text, meta: hit.meta };
    }
    const last = this.last;
    if (!last || last.docKey !== docKey || suffix.slice(0, SUFFIX_KEY_CHARS) !== last.suffix.slice(0, SUFFIX_KEY_CHARS)) return undefined;
    const typedLength = offset !== undefined && last.offset !== undefined ? offset - last.offset : prefix.length - last.prefix.length;
    if (typedLength <= 0 || typedLength >= last.text.length || typedLength > prefix.length) return undefined;
    const typed = prefix.slice(prefix.length - typedLength);
    if (!last.text.startsWith(typed)) return undefined;
    // What came before the typed text must be what the completion was computed for.
    const before = prefix.slice(0, prefix.length - typedLength);
    const keep = Math.min(PREFIX_KEY_CHARS, before.length, last.prefix.length);
    if (before.slice(before.length - keep) !== last.prefix.slice(last.prefix.length - keep)) return undefined;
    if (offset === undefined && before.length !== last.prefix.length) return undefined;
    return { text: last.text.slice(typedLength), meta: last.meta };
  }

  set(docKey: string, prefix: string, suffix: string, text: string, meta: T, offset?: number): void {
    const entry = { docKey, prefix, suffix, text, meta, offset };
    const k = this.key(docKey, prefix, suffix);
    this.entries.delete(k);
    this.entries.set(k, entry);
    this.last = entry;
    while (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next().value as string;
      this.entries.delete(oldest);
    }
  }

  clear(): void {
    this.entries.clear();
    this.last = undefined;
  }
}
