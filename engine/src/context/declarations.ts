// Declarations of the names in play (issue 18 part 3): besides analogous code, the context carries
// the declaration lines of the symbols the next line is likely to use, because a declaration holds
// many of the names a completion needs (a method's name, its parameters) in a few tokens, where a
// chunk of similar code holds them by chance. Published designs point the same way: Tabby's
// declaration snippets, Continue's definitions along the cursor's syntax path and imports,
// R2C2-Coder's "abstract context" (signatures instead of bodies).
//
// Names in play: the identifiers near the cursor (nearest first). For each, its definitions in the
// index; for a class or type among them, its members (methods are chunks named `Class.member`, or
// definitions inside a small class's chunk). Plus the members of the class the cursor is in (the
// `self.`/`this.` names) and the earlier definitions of the current file. Each declaration is worth
// the names it adds that the editor window does not show, by how close its source is to the cursor,
// per token; the packing keeps the most names per token within its share of the budget.
import type { ChunkKind, RetrievedChunk } from '../types';
import type { IndexTables } from '../index/tables';

export interface DeclarationRef {
  name: string;
  file: string;
  signature: string;
  chunkId: number;
}

export interface DeclarationChunk {
  file: string;
  startLine: number;
  endLine: number;
  kind: ChunkKind;
  name?: string;
}

/** What the index knows, read-only (the engine's definition and chunk tables). */
export interface DeclarationSource {
  lookup(name: string): readonly DeclarationRef[];
  ofFile(file: string): readonly DeclarationRef[];
  chunk(id: number): DeclarationChunk | undefined;
  chunkIdsOfFile(file: string): number[];
}

export interface DeclarationOptions {
  /** Characters the declarations may take (4 per token). */
  budgetChars: number;
  /** Lines before the cursor whose names are in play. Default 60. */
  windowLines?: number;
  /** Lines before the cursor the editor shows (their names add nothing). Default 20. */
  visibleLines?: number;
  /** Names in play looked up, nearest first. Default 48. */
  maxNames?: number;
  /** A name defined in more places than this is left out (it says little). Default 4. */
  maxAmbiguity?: number;
}

/** How close a declaration's reason is to the cursor. */
const WEIGHT = { member: 1, enclosing: 1, definition: 0.7, fileEarlier: 0.4 } as const;

const IDENT = /[A-Za-z_$][A-Za-z0-9_$]*/g;
const CLASS_KINDS = new Set<ChunkKind>(['class', 'class-header', 'type']);

interface Candidate {
  ref: DeclarationRef;
  weight: number;
}

/** Identifiers of `lines`, nearest to the end first, each once. */
export function namesNearCursor(lines: string[]): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (let i = lines.length - 1; i >= 0; i--) {
    const ids = lines[i].match(IDENT) ?? [];
    for (let j = ids.length - 1; j >= 0; j--) {
      if (!seen.has(ids[j])) {
        seen.add(ids[j]);
        out.push(ids[j]);
      }
    }
  }
  return out;
}

/** The members of a class or type definition: method chunks named `Class.member`, else definitions inside its chunk. */
function membersOf(src: DeclarationSource, cls: DeclarationRef): DeclarationRef[] {
  const prefix = `${cls.name}.`;
  const methodChunks = new Set(src.chunkIdsOfFile(cls.file).filter((id) => src.chunk(id)?.name?.startsWith(prefix)));
  return src.ofFile(cls.file).filter((d) => d.name !== cls.name && (methodChunks.has(d.chunkId) || (d.chunkId === cls.chunkId && d.chunkId >= 0)));
}

/**
 * Declaration lines for the editor state, packed into `budgetChars`, best value per character first,
 * grouped by file (one chunk per file, in order of their best declaration).
 */
export function declarationsFor(src: DeclarationSource, state: { file: string; prefix: string; line: number }, opts: DeclarationOptions): RetrievedChunk[] {
  if (opts.budgetChars <= 0) return [];
  const windowLines = opts.windowLines ?? 60;
  const visibleLines = opts.visibleLines ?? 20;
  const maxAmbiguity = opts.maxAmbiguity ?? 4;
  const lines = state.prefix.split('\n');
  const near = lines.slice(-windowLines - 1);
  const visible = new Set((lines.slice(-visibleLines - 1).join('\n').match(IDENT) ?? []));
  const windowStart = state.line - windowLines;
  /** A definition whose chunk the editor window holds is already on screen. */
  const onScreen = (d: DeclarationRef) => {
    if (d.file !== state.file) return false;
    const c = src.chunk(d.chunkId);
    return !c || c.endLine >= windowStart;
  };
  const candidates = new Map<string, Candidate>();
  const offer = (ref: DeclarationRef, weight: number) => {
    if (!ref.signature || onScreen(ref)) return;
    const key = `${ref.file}\0${ref.name}\0${ref.signature}`;
    const c = candidates.get(key);
    if (!c || c.weight < weight) candidates.set(key, { ref, weight });
  };
  // The names near the cursor: their definitions, and the members of the classes among them.
  for (const name of namesNearCursor(near).slice(0, opts.maxNames ?? 48)) {
    const defs = src.lookup(name);
    if (!defs.length || defs.length > maxAmbiguity) continue;
    for (const d of defs) {
      offer(d, WEIGHT.definition);
      const kind = src.chunk(d.chunkId)?.kind;
      if (kind && CLASS_KINDS.has(kind)) for (const m of membersOf(src, d)) offer(m, WEIGHT.member);
    }
  }
  // The class the cursor is in (its members so far) and the file's earlier definitions.
  const own = src.ofFile(state.file);
  let enclosing: DeclarationRef | undefined;
  for (const d of own) {
    const c = src.chunk(d.chunkId);
    if (c && CLASS_KINDS.has(c.kind) && c.startLine <= state.line && (!enclosing || c.startLine >= (src.chunk(enclosing.chunkId)?.startLine ?? -1))) enclosing = d;
  }
  if (enclosing) for (const m of membersOf(src, enclosing)) offer(m, WEIGHT.enclosing);
  for (const d of own) offer(d, WEIGHT.fileEarlier);

  // Value per character: the names a declaration adds (not on screen, not added before), weighted.
  const scored = [...candidates.values()].map((c) => {
    const text = c.ref.signature;
    const names = new Set((text.match(IDENT) ?? []).filter((n) => !visible.has(n)));
    return { ...c, text, names, value: (c.weight * names.size) / (text.length + 1) };
  }).filter((c) => c.names.size > 0);
  scored.sort((a, b) => b.value - a.value || a.ref.file.localeCompare(b.ref.file) || a.text.localeCompare(b.text));
  const picked: typeof scored = [];
  const shown = new Set<string>();
  let used = 0;
  for (const c of scored) {
    const fresh = [...c.names].filter((n) => !shown.has(n)).length;
    if (!fresh) continue;
    if (used + c.text.length + 1 > opts.budgetChars) continue;
    used += c.text.length + 1;
    picked.push(c);
    for (const n of c.names) shown.add(n);
  }
  const byFile = new Map<string, typeof picked>();
  for (const c of picked) byFile.set(c.ref.file, [...(byFile.get(c.ref.file) ?? []), c]);
  return [...byFile].map(([file, cs]) => {
    const ranges = cs.map((c) => src.chunk(c.ref.chunkId)).filter((r): r is DeclarationChunk => !!r);
    return {
      file,
      startLine: ranges.length ? Math.min(...ranges.map((r) => r.startLine)) : 0,
      endLine: ranges.length ? Math.max(...ranges.map((r) => r.endLine)) : 0,
      kind: 'type' as ChunkKind,
      name: 'declarations',
      text: cs.map((c) => c.text).join('\n'),
      score: cs[0].value,
      signals: { declarations: 1 },
    };
  });
}

/** The engine's tables as a DeclarationSource. */
export function declarationSourceOf(tables: Pick<IndexTables, 'defs' | 'chunks'>): DeclarationSource {
  return {
    lookup: (name) => tables.defs.lookup(name),
    ofFile: (file) => tables.defs.ofFile(file),
    chunk: (id) => tables.chunks.get(id),
    chunkIdsOfFile: (file) => tables.chunks.idsOfFile(file),
  };
}
