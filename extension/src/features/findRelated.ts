// "Find Related Code": retrieves chunks related to the selection (or the code around the cursor)
// and lists them in a QuickPick; picking one opens it.
import * as vscode from 'vscode';
import type { EditorState, RetrievedChunk } from '../../../engine/src/types';
import { config } from '../config';
import type { Ctx } from '../ctx';
import { editorState, signalFor } from '../editorState';
import type { FolderIndex } from '../folderIndex';

export interface RelatedResult {
  folder: FolderIndex;
  chunks: RetrievedChunk[];
}

/** Identifiers shorter than this say too little on their own; the code around the cursor is used instead. */
const MIN_SYMBOL = 3;

/**
 * What to search for: the selected text; else the identifier under the cursor (a line usually
 * mentions several, and the user pointed at one); else the code around the cursor.
 */
function relatedQuery(doc: vscode.TextDocument, selection: vscode.Selection, rel: string, recent: string[]): EditorState | string {
  if (!selection.isEmpty) return doc.getText(selection);
  const word = doc.getWordRangeAtPosition(selection.active);
  const symbol = word ? doc.getText(word) : '';
  if (symbol.length >= MIN_SYMBOL && /^[A-Za-z_$]/.test(symbol)) return symbol;
  return editorState(doc, selection.active, rel, recent);
}

/** Chunks related to the selection, the symbol or the code at the cursor; the chunk under the cursor itself is left out. */
export async function findRelated(ctx: Ctx, doc: vscode.TextDocument, selection: vscode.Selection, token?: vscode.CancellationToken): Promise<RelatedResult | undefined> {
  const fi = ctx.folderFor(doc.uri);
  const rel = fi?.relPath(doc.uri);
  if (!fi || rel === undefined) return undefined;
  const query = relatedQuery(doc, selection, rel, ctx.recentFiles());
  const cancel = token ? signalFor(token) : undefined;
  try {
    const chunks = await fi.client.retrieve(query, { k: config.relatedMaxResults() + 1, signal: cancel?.signal });
    const line = selection.active.line;
    return { folder: fi, chunks: chunks.filter((c) => !(c.file === rel && c.startLine <= line && line <= c.endLine)).slice(0, config.relatedMaxResults()) };
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
}

function preview(text: string): string {
  const lines = text.split('\n').map((l) => l.trim()).filter((l) => l.length > 0);
  return lines.slice(0, 2).join(' ⏎ ').slice(0, 160);
}

export async function openChunk(folder: vscode.Uri, chunk: Pick<RetrievedChunk, 'file' | 'startLine' | 'endLine'>): Promise<vscode.TextEditor> {
  const doc = await vscode.workspace.openTextDocument(vscode.Uri.joinPath(folder, chunk.file));
  const range = new vscode.Range(chunk.startLine, 0, chunk.startLine, 0);
  const editor = await vscode.window.showTextDocument(doc, { selection: range, preview: true });
  editor.revealRange(new vscode.Range(chunk.startLine, 0, chunk.endLine, 0), vscode.TextEditorRevealType.InCenterIfOutsideViewport);
  return editor;
}

export function registerFindRelated(ctx: Ctx): { lastShown(): RetrievedChunk[] | undefined } {
  let shown: RetrievedChunk[] | undefined;
  ctx.push(
    vscode.commands.registerCommand('reporecall.findRelated', async (): Promise<RetrievedChunk | undefined> => {
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
      shown = undefined;
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
          pick.items = result.chunks.map((c) => ({
            label: `$(${KIND_ICON[c.kind] ?? 'symbol-file'}) ${c.name ?? c.file.split('/').pop()}`,
            description: `${c.file}:${c.startLine + 1}`,
            detail: `score ${c.score.toFixed(3)} · ${preview(c.text)}`,
            chunk: c,
          }));
          pick.placeholder = result.chunks.length ? 'Pick a result to open it' : 'Nothing related found';
          shown = result.chunks;
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
      const fi = ctx.folderFor(editor.document.uri);
      if (choice && fi) await openChunk(fi.folder.uri, choice.chunk);
      return choice?.chunk;
    }),
  );
  return { lastShown: () => shown };
}
