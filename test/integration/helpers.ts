// Shared helpers of the extension-host integration tests.
import * as vscode from 'vscode';
import type { RepoRecallApi } from '../../extension/src/extension';

export const EXTENSION_ID = 'reporecall.reporecall';

export async function activatedApi(): Promise<RepoRecallApi> {
  const ext = vscode.extensions.getExtension<RepoRecallApi>(EXTENSION_ID);
  if (!ext) throw new Error(`extension ${EXTENSION_ID} is not loaded`);
  const api = ext.isActive ? ext.exports : await ext.activate();
  await api.whenReady();
  return api;
}

export function folder(): vscode.WorkspaceFolder {
  const f = vscode.workspace.workspaceFolders?.[0];
  if (!f) throw new Error('the tests need a workspace folder (test/fixtures/workspace copy)');
  return f;
}

export function fileUri(rel: string): vscode.Uri {
  return vscode.Uri.joinPath(folder().uri, rel);
}

/** Position of the first occurrence of `needle` in the document (+ `offset` characters). */
export function positionOf(doc: vscode.TextDocument, needle: string, offset = 0): vscode.Position {
  const at = doc.getText().indexOf(needle);
  if (at < 0) throw new Error(`"${needle}" not found in ${doc.uri.path}`);
  return doc.positionAt(at + offset);
}

/**
 * Polls `probe` until it returns a value (not undefined) or `deadlineMs` passes. Index updates are
 * asynchronous (debounced events, then the worker); this waits for the effect, it does not time it.
 */
export async function eventually<T>(what: string, probe: () => Promise<T | undefined>, deadlineMs = 60_000): Promise<T> {
  const end = Date.now() + deadlineMs;
  let last: unknown;
  while (Date.now() < end) {
    try {
      const v = await probe();
      if (v !== undefined) return v;
    } catch (err) {
      last = err;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`gave up waiting for ${what}${last ? `: ${String(last)}` : ''}`);
}

export function cancellationToken(): vscode.CancellationToken {
  return new vscode.CancellationTokenSource().token;
}
