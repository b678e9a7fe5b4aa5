// Warm-up: the first keystroke in a file should not pay for a cold engine.
import * as vscode from 'vscode';
import type { Ctx } from '../ctx';
import { editorState } from '../editorState';

/**
 * Warms the engine for the file the user is in: once its engine is open, and when another file
 * becomes active, one completion at the cursor is computed and dropped, so the first keystroke in
 * that file does not pay for reading it and its neighbours' index entries, and the file is parsed
 * so the first hover does not pay for that either (idle time, off the keystroke path; the engine
 * also warms its model and code paths by itself when it opens).
 */
export function registerWarmUp(c: Ctx): void {
  let timer: NodeJS.Timeout | undefined;
  const warm = (editor: vscode.TextEditor | undefined): void => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (!editor || editor.document.uri.scheme !== 'file') return;
    const fi = c.folderFor(editor.document.uri);
    const rel = fi?.relPath(editor.document.uri);
    if (!fi || rel === undefined) return;
    // A short delay: flicking through editors warms only the one the user stays in.
    timer = setTimeout(() => {
      timer = undefined;
      const doc = editor.document;
      const pos = editor.selection.active;
      void fi.client.whenReady()
        .then(() => c.timings.span('warmup', async () => {
          await fi.client.complete(editorState(doc, pos, rel, c.recentFiles()));
          // The file's syntax tree, which the first hover and Find Related Code would otherwise parse.
          await fi.client.symbolAt(rel, pos.line, pos.character, { content: doc.isDirty ? doc.getText() : undefined });
        }))
        .catch(() => undefined);
    }, 150);
  };
  warm(vscode.window.activeTextEditor);
  c.push(vscode.window.onDidChangeActiveTextEditor(warm), { dispose: () => timer && clearTimeout(timer) });
}
