// Callers indexed again when their callees' definitions change. A chunk's indexed text holds the
// signatures of the repository functions it calls (enrich/callgraph.ts), resolved when the chunk
// was built; when a name's definitions change (a function renamed, a file emptied or removed, a
// name defined anew) the chunks calling it are stale until their file is indexed again, and the
// index no longer equals a clean build of the tree (other BM25 statistics, other vectors).
import * as fs from 'fs';
import * as path from 'path';
import type { Bm25Index } from '../lexical/bm25';
import { lexicalTerms } from '../lexical/tokenize';
import { classifyContent, decodeSource, readSourceText } from '../scan';
import { sha1 } from '../index/indexStore';
import type { ChunkedFile } from '../types';
import type { Pending } from './parsedSpill';

type Definition = { name: string; signature: string };

/** A file's current text: its unsaved buffer's, else the disk's; undefined when it cannot be read. */
export function currentText(root: string, rel: string, overlay: string | undefined): { content: string; size: number; mtimeMs: number } | undefined {
  if (overlay !== undefined) return { content: overlay, size: Buffer.byteLength(overlay), mtimeMs: 0 };
  try {
    const abs = path.join(root, rel);
    const st = fs.statSync(abs);
    return { content: readSourceText(abs), size: st.size, mtimeMs: st.mtimeMs };
  } catch {
    return undefined;
  }
}

/**
 * A file on disk for a single-file update: its text, 'drop' when it is too large or not
 * indexable (binary, generated, minified), undefined when it cannot be read.
 */
export function readForUpdate(root: string, rel: string, maxBytes: number): { content: string; size: number; mtimeMs: number } | 'drop' | undefined {
  try {
    const abs = path.join(root, rel);
    const st = fs.statSync(abs);
    const bytes = st.size > maxBytes ? undefined : fs.readFileSync(abs);
    if (!bytes || classifyContent(rel, bytes)) return 'drop';
    return { content: decodeSource(bytes), size: st.size, mtimeMs: st.mtimeMs };
  } catch {
    return undefined;
  }
}

/** What CalleeChanges needs of the workspace index. */
export interface CalleeChangesHost {
  root(): string;
  overlay(rel: string): string | undefined;
  /** Parses a file's text and sets its definitions. */
  parse(rel: string, text: string): Promise<ChunkedFile>;
  /** The main lexical field: each chunk's identifiers whole (lexical/tokenize.ts) and the callee signatures it was enriched with. */
  lexical(): Bm25Index;
  fileOf(id: number): string | undefined;
  /** Drops a file's row and chunks, keeping its definitions (others resolve against them meanwhile). */
  drop(rel: string): void;
}

export class CalleeChanges {
  /** Names whose definitions changed since their callers were last found. */
  private readonly names = new Set<string>();

  constructor(private readonly host: CalleeChangesHost) {}

  /** Records the names whose definitions differ between `before` and `after` (one file's). */
  note(before: readonly Definition[], after: readonly Definition[]): void {
    // No chunk yet (a cold build's parse): nothing can be stale, and a large repository's names would fill the set.
    if (this.host.lexical().size === 0) return;
    const group = (defs: readonly Definition[]) => {
      const m = new Map<string, string[]>();
      for (const d of defs) m.set(d.name, [...(m.get(d.name) ?? []), d.signature]);
      return new Map([...m].map(([name, sigs]) => [name, JSON.stringify(sigs.sort())]));
    };
    const b = group(before), a = group(after);
    for (const name of new Set([...b.keys(), ...a.keys()])) if (b.get(name) !== a.get(name)) this.names.add(name);
  }

  /**
   * Drops the files (other than `except`) whose chunks mention a noted name, and forgets the
   * names. Dropped in the same turn as the change that made them stale, so a save meanwhile
   * commits them gone (the next scan indexes them), never stale. A name without a lexical term
   * (one character) cannot be looked up and is not followed.
   */
  private dropDependents(except: ReadonlySet<string>): string[] {
    const files = new Set<string>();
    const lexical = this.host.lexical();
    for (const name of this.names) {
      const terms = lexicalTerms(name);
      const term = terms[terms.length - 1];
      if (term === undefined) continue;
      for (const hit of lexical.search([term], lexical.size)) {
        const file = this.host.fileOf(hit.id);
        if (file !== undefined && !except.has(file)) files.add(file);
      }
    }
    this.names.clear();
    const out = [...files].sort();
    for (const rel of out) this.host.drop(rel);
    return out;
  }

  /** Drops `rels` (keeping their definitions) and parses each again for `add`. */
  async reparse(rels: readonly string[], add: (dep: Pending & { chunked: ChunkedFile }) => void): Promise<void> {
    for (const rel of rels) this.host.drop(rel);
    for (const rel of rels) {
      const text = currentText(this.host.root(), rel, this.host.overlay(rel));
      if (!text) continue; // gone: the next scan or its watcher event drops it
      const chunked = await this.host.parse(rel, text.content);
      add({ rel, ...text, hash: sha1(text.content), chunked, chunks: chunked.chunks.length });
    }
  }

  /**
   * Drops the dependents of the names noted so far (`except` aside), parses each again and hands
   * it to `add`, then does the same for names that a parse changed (a dependent edited meanwhile).
   */
  async dependents(except: ReadonlySet<string>, add: (dep: Pending & { chunked: ChunkedFile }) => void): Promise<void> {
    const done = new Set(except);
    for (let rels = this.dropDependents(done); rels.length; rels = this.dropDependents(done)) {
      for (const rel of rels) done.add(rel);
      await this.reparse(rels, add);
    }
  }
}
