// Small completion cache plus "typed-through" reuse: when the user types the first characters of
// the ghost text, the rest is served without asking the engine again. vscode-free.

export interface CachedCompletion<T> {
  /** Document key (uri) + the text around the cursor the completion was computed for. */
  docKey: string;
  prefix: string;
  suffix: string;
  text: string;
  meta: T;
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

  /** An exact hit, or the remainder of the last completion when the user typed into it. */
  get(docKey: string, prefix: string, suffix: string): { text: string; meta: T } | undefined {
    const k = this.key(docKey, prefix, suffix);
    const hit = this.entries.get(k);
    if (hit) {
      this.entries.delete(k); // refresh LRU position
      this.entries.set(k, hit);
      return { text: hit.text, meta: hit.meta };
    }
    const last = this.last;
    if (last && last.docKey === docKey && prefix.length > last.prefix.length && prefix.startsWith(last.prefix)) {
      const typed = prefix.slice(last.prefix.length);
      if (last.text.startsWith(typed) && typed.length < last.text.length && suffix.slice(0, SUFFIX_KEY_CHARS) === last.suffix.slice(0, SUFFIX_KEY_CHARS)) {
        return { text: last.text.slice(typed.length), meta: last.meta };
      }
    }
    return undefined;
  }

  set(docKey: string, prefix: string, suffix: string, text: string, meta: T): void {
    const entry = { docKey, prefix, suffix, text, meta };
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
