// Keeps every folder's index fresh: file system changes (create/change/delete, from any source),
// unsaved edits (debounced, the buffer text is indexed), saves, and buffers closed without saving.
// A delete is the last word on a path: edits waiting to be sent for it (or for a file under a
// deleted folder) are dropped, so a buffer sent after the delete cannot put the file back.
import * as vscode from 'vscode';
import { config } from '../config';
import type { Ctx } from '../ctx';
import { combined } from '../dispose';

/** File events often come in bursts (git checkout, formatters); coalesce them per path. */
const FS_EVENT_DELAY_MS = 300;

export function registerIndexSync(ctx: Ctx): vscode.Disposable {
  const editTimers = new Map<string, NodeJS.Timeout>();
  const fsTimers = new Map<string, NodeJS.Timeout>();
  const clear = (timers: Map<string, NodeJS.Timeout>, key: string): void => {
    const t = timers.get(key);
    if (t) clearTimeout(t);
    timers.delete(key);
  };

  /** Disk changes are skipped for files open with unsaved edits: the buffer is what the user sees. */
  const onDisk = (uri: vscode.Uri, kind: 'update' | 'remove'): void => {
    const fi = ctx.folderFor(uri);
    const rel = fi?.relPath(uri);
    if (!fi || rel === undefined) return;
    const key = uri.toString();
    clear(fsTimers, key);
    // The editor's buffer may still be open (VS Code keeps it after the tab closes): its pending
    // update would re-add what is deleted, after the delete.
    if (kind === 'remove') for (const k of [...editTimers.keys()]) if (k === key || k.startsWith(`${key}/`)) clear(editTimers, k);
    fsTimers.set(key, setTimeout(() => {
      fsTimers.delete(key);
      if (kind === 'remove') return void fi.removeFile(rel);
      const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === key);
      if (open?.isDirty) return;
      void fi.updateFile(rel);
    }, FS_EVENT_DELAY_MS));
  };

  const watcher = vscode.workspace.createFileSystemWatcher('**/*');
  return combined(
    watcher,
    watcher.onDidCreate((uri) => onDisk(uri, 'update')),
    watcher.onDidChange((uri) => onDisk(uri, 'update')),
    watcher.onDidDelete((uri) => onDisk(uri, 'remove')),
    vscode.workspace.onDidChangeTextDocument((e) => {
      if (!e.contentChanges.length) return;
      const doc = e.document;
      const fi = ctx.folderFor(doc.uri);
      const rel = fi?.relPath(doc.uri);
      if (!fi || rel === undefined) return;
      ctx.noteRecent(rel);
      const key = doc.uri.toString();
      clear(editTimers, key);
      editTimers.set(key, setTimeout(() => {
        editTimers.delete(key);
        if (!doc.isClosed) void ctx.timings.span('updateFile', () => fi.updateFile(rel, doc.getText()));
      }, config.liveUpdateDelayMs()));
    }),
    vscode.workspace.onDidSaveTextDocument((doc) => {
      const fi = ctx.folderFor(doc.uri);
      const rel = fi?.relPath(doc.uri);
      if (!fi || rel === undefined) return;
      clear(editTimers, doc.uri.toString());
      clear(fsTimers, doc.uri.toString()); // the watcher's change event for this save is redundant
      void fi.updateFile(rel, doc.getText());
    }),
    vscode.workspace.onDidCloseTextDocument((doc) => {
      // Closed without saving: the index held the buffer; go back to what is on disk.
      if (!editTimers.has(doc.uri.toString()) && !doc.isDirty) return;
      const fi = ctx.folderFor(doc.uri);
      const rel = fi?.relPath(doc.uri);
      clear(editTimers, doc.uri.toString());
      if (fi && rel !== undefined) void fi.updateFile(rel);
    }),
    { dispose: () => [...editTimers.values(), ...fsTimers.values()].forEach(clearTimeout) },
  );
}
