// Editor states for the scale bench: a random line and column of a random code file, everything
// above the cursor as the prefix. Shared by the indexing run and the fresh-process query run, so
// both time the same kind of keystroke.
import * as fs from 'fs';
import * as path from 'path';
import type { EditorState } from '../../../engine/src/types';

export const CODE_FILE = /\.(ts|js|py|go|java|rs)$/;

export function editorStateAt(root: string, relPath: string, r: () => number): EditorState {
  const lines = fs.readFileSync(path.join(root, relPath), 'utf8').split('\n');
  const line = Math.floor(r() * Math.max(1, lines.length - 1));
  const col = Math.floor(r() * (lines[line].length + 1));
  const prefix = lines.slice(0, line).join('\n') + (line ? '\n' : '') + lines[line].slice(0, col);
  const suffix = lines[line].slice(col) + '\n' + lines.slice(line + 1).join('\n');
  return { file: relPath, prefix, suffix, line };
}

export function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}
