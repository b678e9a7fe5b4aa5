// The tables' changes since a commit, per file: a file's entry, its chunk rows and its definitions
// as they are now, or that it is gone. Replaying the changes saved after a tables base (tables.ts)
// in order rebuilds the tables: each change first drops what the file had, then sets what it has.
import type { DefinitionRef } from '../enrich/definitionTable';
import type { DocInfo } from '../store/chunkTable';
import type { FileEntry } from '../store/fileTable';
import type { IndexTables } from './tables';

export interface FileChange {
  rel: string;
  /** Absent: the file left the index. */
  entry?: FileEntry;
  rows?: DocInfo[];
  defs?: Array<Omit<DefinitionRef, 'file'>>;
}

export interface TablesDelta {
  nextChunkId: number;
  files: FileChange[];
}

/** The current state of the files `rels` (in the order given). */
export function tablesDelta(t: IndexTables, rels: Iterable<string>): TablesDelta {
  const files: FileChange[] = [];
  for (const rel of rels) {
    const entry = t.files.get(rel);
    if (!entry) {
      files.push({ rel });
      continue;
    }
    const rows = t.chunks.idsOfFile(rel).map((id) => t.chunks.get(id)!);
    const defs = t.defs.ofFile(rel).map((d) => ({ name: d.name, signature: d.signature, chunkId: d.chunkId }));
    files.push({ rel, entry, rows, defs });
  }
  return { nextChunkId: t.nextChunkId, files };
}

/** Replays `d` onto `t`; throws on a malformed delta. */
export function applyTablesDelta(t: IndexTables, d: TablesDelta): void {
  if (!Number.isSafeInteger(d.nextChunkId) || !Array.isArray(d.files)) throw new Error('tables delta malformed');
  for (const f of d.files) {
    if (typeof f.rel !== 'string') throw new Error('tables delta malformed: a file without a path');
    for (const id of t.chunks.idsOfFile(f.rel)) t.chunks.remove(id);
    t.defs.removeFile(f.rel);
    t.files.delete(f.rel);
  }
  // Rows in id order, as they were first added (ids only grow): definers come out in that order.
  const rows = d.files.flatMap((f) => (f.entry ? f.rows ?? [] : []));
  rows.sort((a, b) => a.id - b.id);
  for (const row of rows) {
    if (t.chunks.has(row.id)) throw new Error(`tables delta malformed: chunk ${row.id} added twice`);
    t.chunks.add(row);
  }
  for (const f of d.files) {
    if (!f.entry) continue;
    t.files.set(f.rel, f.entry);
    t.defs.setFile(f.rel, (f.defs ?? []).map((x) => ({ ...x, file: f.rel })));
  }
  t.nextChunkId = Math.max(t.nextChunkId, d.nextChunkId);
}
