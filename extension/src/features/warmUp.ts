// Warm-up: the first keystroke in a file should not pay for a cold engine.
import * as vscode from 'vscode';
import type { Ctx } from '../ctx';
import { combined } from '../dispose';
import { editorState } from '../editorState';

/** After an editor switch, the file is parsed this much later if it was not edited meanwhile. */
const PARSE_AFTER_MS = 1000;

/**
 * Warms the engine for the file the user is in: once its engine is open, and when another file
 * becomes active, one completion at the cursor is computed and dropped, so the first keystroke in
 * that file does not pay for reading it and its neighbours' index entries, and the file is parsed
 * so the first hover does not pay for that either (idle time, off the keystroke path; the engine
 * also warms its model and code paths by itself when it opens).
 */
export function registerWarmUp(c: Ctx): vscode.Disposable {
  let timer: NodeJS.Timeout | undefined;
  let parseTimer: NodeJS.Timeout | undefined;
  const warm = (editor: vscode.TextEditor | undefined): void => {
    if (timer) clearTimeout(timer);
    if (parseTimer) clearTimeout(parseTimer);
    timer = parseTimer = undefined;
    if (!editor || editor.document.uri.scheme !== 'file') return;
    const fi = c.folderFor(editor.document.uri);
    const rel = fi?.relPath(editor.document.uri);
    if (!fi || rel === undefined) return;
    // A short delay: flicking through editors warms only the one the user stays in.
    timer = setTimeout(() => {
      timer = undefined;
      const doc = editor.document;
      const pos = editor.selection.active;
      const version = doc.version;
      void fi.client.whenReady()
        .then(() => c.timings.span('warmup', () => fi.client.complete(editorState(doc, pos, rel, c.recentFiles()))))
        .catch(() => undefined);
      // The file's syntax tree, scopes and module summary, which the first hover or Find Related Code
      // would otherwise build (100-300 ms for a 3,000-line file, during which the engine answers nothing): a second later,
      // and only if the user has not typed since, so it seldom meets a keystroke's completion.
      parseTimer = setTimeout(() => {
        parseTimer = undefined;
        if (doc.isClosed || doc.version !== version || vscode.window.activeTextEditor?.document !== doc) return;
        void fi.client.prepareFile(rel, doc.isDirty ? doc.getText() : undefined).catch(() => undefined);
      }, PARSE_AFTER_MS);
    }, 150);
  };
  // The editor active at startup is warmed once its folder's engine exists (folders open after activation).
  let startup = true;
  const warmStartup = (): void => {
    const editor = vscode.window.activeTextEditor;
    if (!startup || !editor || !c.folderFor(editor.document.uri)) return;
    startup = false;
    warm(editor);
  };
  warmStartup();
  return combined(c.onDidChangeIndexes(warmStartup), vscode.window.onDidChangeActiveTextEditor((e) => {
    startup = false;
    warm(e);
  }), { dispose: () => [timer, parseTimer].forEach((t) => t && clearTimeout(t)) });
}
