// Builds the engine's EditorState from a VS Code document and cursor.
import * as vscode from 'vscode';
import type { EditorState } from '../../engine/src/public';

/** Left context handed to the engine is capped: the engine only looks at the recent part. */
const MAX_PREFIX_CHARS = 16_000;
const MAX_SUFFIX_CHARS = 4_000;

export function editorState(doc: vscode.TextDocument, pos: vscode.Position, relPath: string, recentFiles: string[]): EditorState {
  // Only the two windows are copied out of the document, not its whole text, per keystroke.
  const offset = doc.offsetAt(pos);
  const start = doc.positionAt(Math.max(0, offset - MAX_PREFIX_CHARS));
  const end = doc.positionAt(offset + MAX_SUFFIX_CHARS);
  return {
    file: relPath,
    language: doc.languageId,
    prefix: doc.getText(new vscode.Range(start, pos)),
    suffix: doc.getText(new vscode.Range(pos, end)),
    line: pos.line,
    recentFiles: recentFiles.filter((f) => f !== relPath).slice(0, 10),
  };
}

/** The same state from a document's text and a cursor offset (a text the editor does not hold: Copilot's proposed edits applied). */
export function editorStateFromText(text: string, offset: number, languageId: string, relPath: string, recentFiles: string[]): EditorState {
  const before = text.slice(0, offset);
  return {
    file: relPath,
    language: languageId,
    prefix: before.slice(Math.max(0, offset - MAX_PREFIX_CHARS)),
    suffix: text.slice(offset, offset + MAX_SUFFIX_CHARS),
    line: (before.match(/\r\n|\r|\n/g) ?? []).length,
    recentFiles: recentFiles.filter((f) => f !== relPath).slice(0, 10),
  };
}

/** Maps a CancellationToken to an AbortSignal (the engine client speaks AbortSignal). */
export function signalFor(token: vscode.CancellationToken): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  if (token.isCancellationRequested) controller.abort();
  const sub = token.onCancellationRequested(() => controller.abort());
  return { signal: controller.signal, dispose: () => sub.dispose() };
}

const FENCE_LANGUAGE: Record<string, string> = {
  ts: 'typescript', tsx: 'typescriptreact', js: 'javascript', jsx: 'javascriptreact', mjs: 'javascript', cjs: 'javascript',
  py: 'python', go: 'go', rs: 'rust', java: 'java', c: 'c', h: 'c', cc: 'cpp', cpp: 'cpp', hpp: 'cpp', cs: 'csharp',
  rb: 'ruby', php: 'php', kt: 'kotlin', swift: 'swift', scala: 'scala', sh: 'shell', md: 'markdown', json: 'json',
};

/** Markdown code-fence language for a file path (empty when unknown). */
export function fenceLanguage(relPath: string): string {
  const ext = relPath.slice(relPath.lastIndexOf('.') + 1).toLowerCase();
  return FENCE_LANGUAGE[ext] ?? '';
}
