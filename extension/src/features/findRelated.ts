// "Find Related Code": code related to the selection, the name under the cursor, or the code around
// the cursor, in a QuickPick whose title says what was searched. On a name its definition comes
// first; near-duplicate chunks (same code once comments and whitespace are dropped, or nearly all
// lines shared) are one row with "+ N copies" (the row's button lists them); code comes before
// tests, configuration and data files, and docs (unless the user is in one). The definition is the
// language server's where one answers in time, else RepoRecall's resolver's, and its row says which.
// Picking a row opens it.
import * as vscode from 'vscode';
import type { SymbolInfo } from '../../../engine/src/public';
import type { EditorState, RetrievedChunk } from '../../../engine/src/public';
import { config } from '../config';
import type { Ctx } from '../ctx';
import { combined } from '../dispose';
import type { RelatedTiming, RelatedView } from '../recorder';
import { editorState, signalFor } from '../editorState';
import type { FolderIndex } from '../folderIndex';
import { chooseDefinition, SOURCE_WORDS, type DefinitionSource } from './definitionChoice';
import { preview, relatedRows, USES, type RelatedReason, type RelatedRow } from './relatedRows';
import { serverDefinition } from './serverDefinition';

export interface RelatedResult {
  folder: FolderIndex;
  /** What was searched, for the QuickPick title: `retrieve_timesteps`, `selection "…"`, `the code at main.ts:12`. */
  searched: string;
  rows: RelatedRow[];
  /** First chunk of each row (the API's and the older callers' view). */
  chunks: RetrievedChunk[];
  timing: RelatedTiming;
  /** Where the definition row comes from (the language server or RepoRecall). */
  source?: DefinitionSource;
}

const MAX_TITLE = 60;
/** Siblings of the definition asked for (same directory, same shape or callers). */
const SIBLINGS = 5;

function clip(s: string, n: number): string {
  return s.length > n ? `${s.slice(0, n - 1)}…` : s;
}

/** A definition the retrieval did not return, as a row (its declaration and doc). */
function definitionChunk(symbol: SymbolInfo, rel: string): RetrievedChunk | undefined {
  if (symbol.resolution === 'candidates' || symbol.resolution === 'external') return undefined; // only a resolved definition is shown as one
  const d = symbol.definitions.find((x) => !x.copyOf && !(x.file === rel && x.declLine === symbol.line)) ?? symbol.definitions.find((x) => !(x.file === rel && x.declLine === symbol.line));
  if (!d) return undefined;
  return { file: d.file, startLine: d.declLine, endLine: d.endLine, kind: d.kind === 'impl' ? 'class' : d.kind === 'variable' || d.kind === 'attribute' ? 'module' : d.kind, name: symbol.name, text: [d.declaration, d.doc].filter(Boolean).join('\n'), score: 0, signals: {} };
}

/** Chunks related to the selection, the name or the code at the cursor; the chunk under the cursor itself is left out. */
export async function findRelated(ctx: Ctx, doc: vscode.TextDocument, selection: vscode.Selection, token?: vscode.CancellationToken): Promise<RelatedResult | undefined> {
  const fi = ctx.folderFor(doc.uri);
  const rel = fi?.relPath(doc.uri);
  if (!fi || rel === undefined) return undefined;
  const cancel = token ? signalFor(token) : undefined;
  const signal = cancel?.signal;
  const t0 = performance.now();
  try {
    let symbol: SymbolInfo | null = null;
    let source: DefinitionSource | undefined;
    let related: RetrievedChunk[] | undefined;
    const max = config.relatedMaxResults();
    let query: EditorState | string;
    let searched: string;
    if (!selection.isEmpty) {
      query = doc.getText(selection);
      const firstLine = query.split('\n').map((l) => l.trim()).find(Boolean) ?? '';
      searched = `selection "${clip(firstLine, MAX_TITLE)}"`;
    } else {
      const pos = selection.active;
      // The language server's definition, asked at once; the name at the cursor and what is found
      // for it in one engine request meanwhile; the code at the cursor otherwise.
      const server = serverDefinition(doc, pos, config.definitionBudgetMs(), token ?? new vscode.CancellationTokenSource().token);
      const found = await fi.client.symbolRelated(rel, pos.line, pos.character, { options: { k: max * 3 }, siblings: SIBLINGS }, { content: doc.isDirty ? doc.getText() : undefined, signal }).catch((err: Error) => {
        if (signal?.aborted) throw err;
        ctx.log.debug(`find related: symbolAt failed (${err.message}); searching the code at the cursor`);
        return null;
      });
      const choice = found && (await chooseDefinition(found.symbol, rel, await server, (u) => fi.relPath(vscode.Uri.parse(u)), (f, l, c) => fi.client.definitionAt(f, l, c, { siblings: SIBLINGS, signal })));
      symbol = choice?.symbol ?? null;
      source = choice?.source;
      // The language server's definition brings its own siblings.
      related = choice && found ? (choice.siblings ? [...found.chunks.filter((c) => c.relation?.kind !== 'sibling'), ...choice.siblings] : found.chunks) : undefined;
      query = symbol ? symbol.name : editorState(doc, pos, rel, ctx.recentFiles());
      searched = symbol ? symbol.name : `the code at ${rel.split('/').pop()}:${pos.line + 1}`;
    }
    const t1 = performance.now();
    // Copies collapse into one row, so more are asked for than rows shown.
    const retrieved = related ?? (await fi.client.retrieve(query, { k: max * 3, signal }));
    const t2 = performance.now();
    const line = selection.active.line;
    const chunks = retrieved.filter((c) => !(c.file === rel && c.startLine <= line && line <= c.endLine));
    // The definition shown is the resolved one (or the server's), not just any chunk declaring the name.
    if (symbol && !chunks.some((c) => symbol!.definitions.some((d) => d.file === c.file && c.startLine <= d.declLine && d.declLine <= c.endLine))) {
      const def = definitionChunk(symbol, rel);
      if (def) chunks.unshift(def);
    }
    const rows = relatedRows(chunks, symbol, rel, max);
    const timing = { symbolMs: t1 - t0, retrieveMs: t2 - t1, totalMs: performance.now() - t0 };
    ctx.log.debug(`find related ${searched}: symbolAt ${timing.symbolMs.toFixed(1)} ms, retrieve ${timing.retrieveMs.toFixed(1)} ms, total ${timing.totalMs.toFixed(1)} ms, ${retrieved.length} chunks -> ${rows.length} rows`);
    return { folder: fi, searched, rows, chunks: rows.map((r) => r.chunk), timing, ...(source ? { source } : {}) };
  } finally {
    cancel?.dispose();
  }
}

const KIND_ICON: Record<string, string> = {
  function: 'symbol-function', method: 'symbol-method', class: 'symbol-class', 'class-header': 'symbol-class',
  type: 'symbol-interface', module: 'symbol-module', window: 'symbol-file',
};

interface ChunkItem extends vscode.QuickPickItem {
  chunk: RetrievedChunk;
  row?: RelatedRow;
}

const REASON_WORDS: Record<RelatedReason, (name: string) => string> = {
  definition: (n) => `defines ${n}`,
  'overrides it': () => 'overrides it',
  'calls it': () => 'calls it',
  'uses it': () => 'uses it',
  'imports it': () => 'imports it',
  sibling: () => 'beside its definition',
  'mentions it': () => 'mentions it',
  'similar code': () => 'similar code',
};

const SHOW_COPIES: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('files'), tooltip: 'Show the copies' };

function rowItem(row: RelatedRow, name: string, source?: DefinitionSource): ChunkItem {
  const c = row.chunk;
  const why = row.reason === 'definition' && source ? `${REASON_WORDS.definition(name)} · ${SOURCE_WORDS[source]}` : REASON_WORDS[row.reason](name);
  const copies = row.copies.length ? ` · + ${row.copies.length} ${row.copies.length === 1 ? 'copy' : 'copies'}` : '';
  return {
    label: `$(${KIND_ICON[c.kind] ?? 'symbol-file'}) ${c.name ?? c.file.split('/').pop()}`,
    description: `${c.file}:${c.startLine + 1}${copies}`,
    detail: `${why} · ${row.preview ?? preview(c.text, USES.has(row.reason) ? name : undefined)}`,
    chunk: c,
    row,
    buttons: row.copies.length ? [SHOW_COPIES] : undefined,
  };
}

function copyItem(c: RetrievedChunk): ChunkItem {
  return { label: `$(blank) $(files) copy in ${c.file.split('/').pop()}`, description: `${c.file}:${c.startLine + 1}`, detail: preview(c.text), chunk: c };
}

export async function openChunk(folder: vscode.Uri, chunk: Pick<RetrievedChunk, 'file' | 'startLine' | 'endLine'>): Promise<vscode.TextEditor> {
  const doc = await vscode.workspace.openTextDocument(vscode.Uri.joinPath(folder, chunk.file));
  const range = new vscode.Range(chunk.startLine, 0, chunk.startLine, 0);
  const editor = await vscode.window.showTextDocument(doc, { selection: range, preview: true });
  editor.revealRange(new vscode.Range(chunk.startLine, 0, chunk.endLine, 0), vscode.TextEditorRevealType.InCenterIfOutsideViewport);
  return editor;
}

export function registerFindRelated(ctx: Ctx): vscode.Disposable {
  const rec = ctx.recorder;
  return combined(
    vscode.commands.registerCommand('reporecall.findRelated', async (): Promise<RetrievedChunk | undefined> => {
      const started = performance.now();
      const editor = vscode.window.activeTextEditor;
      if (!editor) {
        void vscode.window.showInformationMessage('RepoRecall: open a file to find code related to it.');
        return undefined;
      }
      const pick = vscode.window.createQuickPick<ChunkItem>();
      pick.title = 'RepoRecall: Related Code';
      pick.placeholder = 'Searching the index…';
      pick.matchOnDescription = true;
      pick.matchOnDetail = true;
      pick.busy = true;
      rec.relatedShown = undefined;
      rec.relatedView = undefined;
      rec.expandRelatedCopies = undefined;
      let view: RelatedView | undefined;
      const cts = new vscode.CancellationTokenSource();
      const picked = new Promise<ChunkItem | undefined>((resolve) => {
        // Enter pressed as the results arrive (before the list reports a selection) means the
        // first result, as it would a moment later.
        pick.onDidAccept(() => resolve(pick.selectedItems[0] ?? pick.activeItems[0] ?? pick.items[0]));
        pick.onDidHide(() => resolve(undefined));
      });
      pick.show();
      try {
        const result = await ctx.timings.span('findRelated', () => findRelated(ctx, editor.document, editor.selection, cts.token));
        if (!result) {
          pick.placeholder = 'This file is not in an indexed workspace folder';
        } else {
          pick.title = `RepoRecall: Related to ${result.searched}`;
          const name = result.searched;
          const items = result.rows.map((r) => rowItem(r, name, result.source));
          pick.items = items;
          // The row's button (or expandCopies, for tests and keyboard users via the API) lists its copies under it.
          const expandRow = (index: number): boolean => {
            const item = pick.items.find((it) => it.row === result.rows[index]);
            if (!item?.row?.copies.length) return false;
            const at = pick.items.indexOf(item);
            const rest = pick.items.filter((it) => !item.row!.copies.includes(it.chunk));
            const next = [...rest.slice(0, at), { ...item, buttons: undefined }, ...item.row.copies.map(copyItem), ...rest.slice(at + 1)];
            pick.items = next;
            if (view) view.items = next.map(({ label, description, detail }) => ({ label, description, detail }));
            return true;
          };
          rec.expandRelatedCopies = expandRow;
          pick.onDidTriggerItemButton((e) => {
            if (e.item.row) expandRow(result.rows.indexOf(e.item.row));
          });
          pick.placeholder = result.rows.length ? 'Pick a result to open it' : 'Nothing related found';
          rec.relatedShown = result.chunks;
          view = rec.relatedView = {
            title: pick.title,
            items: items.map(({ label, description, detail }) => ({ label, description, detail })),
            rows: result.rows,
            timing: result.timing,
            commandMs: performance.now() - started,
          };
          ctx.log.debug(`find related: list shown ${view.commandMs?.toFixed(1)} ms after the command`);
        }
      } catch (err) {
        pick.placeholder = `Search failed: ${(err as Error).message}`;
        ctx.log.warn(`find related: ${(err as Error).message}`);
      } finally {
        pick.busy = false;
      }
      const choice = await picked;
      cts.cancel();
      cts.dispose();
      pick.dispose();
      rec.expandRelatedCopies = undefined;
      const fi = ctx.folderFor(editor.document.uri);
      if (choice && fi) await openChunk(fi.folder.uri, choice.chunk);
      return choice?.chunk;
    }),
  );
}
