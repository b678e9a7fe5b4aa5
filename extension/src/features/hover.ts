// Hover: the top retrieved snippets for the identifier under the mouse, with clickable file:line
// links and the signals that ranked them ("why retrieved"). Off with reporecall.hover.enabled.
import * as vscode from 'vscode';
import type { RetrievedChunk } from '../../../engine/src/types';
import { config } from '../config';
import type { Ctx } from '../ctx';
import { fenceLanguage, signalFor } from '../editorState';
import { timedHover } from '../timedProviders';

const MAX_SNIPPET_LINES = 12;
/** Words too short or too common to be worth a retrieval. */
const MIN_WORD = 3;

function why(chunk: RetrievedChunk): string {
  const parts = Object.entries(chunk.signals)
    .filter(([, v]) => v > 0)
    .sort((a, b) => b[1] - a[1])
    .map(([k, v]) => `${k} ${v.toFixed(2)}`);
  return parts.length ? parts.join(' · ') : `score ${chunk.score.toFixed(3)}`;
}

function snippet(chunk: RetrievedChunk): string {
  const lines = chunk.text.replace(/\s+$/, '').split('\n');
  const shown = lines.slice(0, MAX_SNIPPET_LINES).join('\n');
  return lines.length > MAX_SNIPPET_LINES ? `${shown}\n…` : shown;
}

export function hoverMarkdown(folder: vscode.Uri, word: string, chunks: RetrievedChunk[]): vscode.MarkdownString {
  const md = new vscode.MarkdownString(undefined, true);
  md.appendMarkdown(`**RepoRecall** · related to \`${word.replace(/`/g, '')}\`\n\n`);
  for (const c of chunks) {
    const target = vscode.Uri.joinPath(folder, c.file).with({ fragment: `L${c.startLine + 1}` });
    md.appendMarkdown(`---\n\n[${c.file}:${c.startLine + 1}](${target.toString()})`);
    if (c.name) md.appendMarkdown(` · ${c.kind} \`${c.name.replace(/`/g, '')}\``);
    md.appendMarkdown(`  \n_why: ${why(c)}_\n\n`);
    md.appendCodeblock(snippet(c), fenceLanguage(c.file));
  }
  return md;
}

/**
 * The chunks that define the hovered word first, the rest in retrieval order: on a name, the reader
 * wants what it is before where else it is used, whatever the lexical signals make of its line.
 */
function definitionsFirst(chunks: RetrievedChunk[], word: string): RetrievedChunk[] {
  return [...chunks.filter((c) => c.name === word), ...chunks.filter((c) => c.name !== word)];
}

export function registerHover(ctx: Ctx): void {
  ctx.push(
    vscode.languages.registerHoverProvider({ scheme: 'file' }, timedHover(ctx, {
      async provideHover(doc, pos, token) {
        if (!config.hoverEnabled()) return undefined;
        const fi = ctx.folderFor(doc.uri);
        const rel = fi?.relPath(doc.uri);
        const range = doc.getWordRangeAtPosition(pos);
        if (!fi || rel === undefined || !range || !fi.canServe) return undefined;
        const word = doc.getText(range);
        if (word.length < MIN_WORD || /^\d/.test(word)) return undefined;
        const { signal, dispose } = signalFor(token);
        try {
          // The word leads the query; its line gives the retrieval some context.
          const query = `${word}\n${doc.lineAt(pos.line).text.trim()}`;
          const max = config.hoverMaxSnippets();
          const retrieved = (await fi.client.retrieve(query, { k: max + 4, signal }))
            .filter((c) => !(c.file === rel && c.startLine <= pos.line && pos.line <= c.endLine));
          const chunks = definitionsFirst(retrieved, word).slice(0, max);
          if (!chunks.length || token.isCancellationRequested) return undefined;
          return new vscode.Hover(hoverMarkdown(fi.folder.uri, word, chunks), range);
        } catch {
          return undefined; // cancelled or engine busy: a hover is optional
        } finally {
          dispose();
        }
      },
    })),
  );
}
