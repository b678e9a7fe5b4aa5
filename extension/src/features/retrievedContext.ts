// "Show Retrieved Context": what the last completion shown was built from, and why the last request
// showed nothing if it did, as a read-only Markdown document of its own scheme (never an Untitled
// buffer the user is asked to save).
import * as vscode from 'vscode';
import { config } from '../config';
import type { Ctx } from '../ctx';
import { combined } from '../dispose';
import type { CompletionOutcome, CopilotContextRecord, RetrievedContextRecord } from '../completionState';
import { fenceLanguage } from '../editorState';

export type { RetrievedContextRecord };

function fence(text: string, lang: string): string {
  const ticks = text.includes('```') ? '````' : '```';
  return `${ticks}${lang}\n${text.replace(/\s+$/, '')}\n${ticks}`;
}

export async function renderContext(rec: RetrievedContextRecord): Promise<string> {
  const lines: string[] = [
    '# RepoRecall: retrieved context',
    '',
    `Completion at \`${rec.file}:${rec.line + 1}\` (${rec.time.toLocaleTimeString()}), source **${rec.backend}**, ${rec.latencyMs} ms` +
    (rec.confidence !== undefined ? `, confidence ${rec.confidence.toFixed(2)}` : ''),
    '',
    '## Completion',
    '',
    fence(rec.completion, fenceLanguage(rec.file)),
    '',
  ];
  if (rec.source) {
    const uri = vscode.Uri.joinPath(rec.folder, rec.source.file);
    let text: string;
    try {
      const doc = await vscode.workspace.openTextDocument(uri);
      text = doc.getText(new vscode.Range(rec.source.startLine, 0, rec.source.endLine + 1, 0));
    } catch (err) {
      text = `(cannot read ${rec.source.file}: ${(err as Error).message})`;
    }
    lines.push(`## Taken from \`${rec.source.file}:${rec.source.startLine + 1}-${rec.source.endLine + 1}\``, '', fence(text, fenceLanguage(rec.source.file)), '');
  }
  if (rec.snippets.length) {
    lines.push(`## Retrieved snippets in the prompt (${rec.snippets.length})`, '');
    for (const c of rec.snippets) {
      const why = Object.entries(c.signals).map(([k, v]) => `${k} ${v.toFixed(2)}`).join(', ');
      lines.push(`### \`${c.file}:${c.startLine + 1}-${c.endLine + 1}\`${c.name ? ` ${c.name}` : ''} (score ${c.score.toFixed(3)})`, '', why ? `Signals: ${why}` : '', '', fence(c.text, fenceLanguage(c.file)), '');
    }
  }
  const h = rec.hypothesis;
  if (h?.text !== undefined) lines.push(`## Hypothetical continuation searched (${h.from === 'reused' ? 'reused, no request' : 'from the model'})`, '', fence(h.text, fenceLanguage(rec.file)), '');
  else if (h) lines.push(`Hypothetical continuation: skipped (${h.skipped}${h.detail ? `: ${h.detail}` : ''}).`, '');
  if (rec.prompt !== undefined) lines.push('## Prompt sent', '', fence(rec.prompt, ''), '');
  return lines.join('\n');
}

/** Scheme of the read-only context document. */
export const CONTEXT_SCHEME = 'reporecall-context';
/**
 * A new URI per showing (`?n`): an open virtual document is refreshed by VS Code asynchronously,
 * a new one is read when opened, so what the command returns is what the editor shows.
 */
function contextUri(n: number): vscode.Uri {
  return vscode.Uri.from({ scheme: CONTEXT_SCHEME, path: '/Retrieved Context.md', query: String(n) });
}

export function renderOutcome(o: CompletionOutcome): string {
  return [`## No suggestion at \`${o.file}:${o.line + 1}\` (${o.time.toLocaleTimeString()})`, '', `Why: **${o.reason}**${o.detail ? ` — ${o.detail}` : ''}.`, ''].join('\n');
}

const lines = (f: { file?: string; startLine?: number; endLine?: number }): string => (f.file ? `\`${f.file}:${(f.startLine ?? 0) + 1}-${(f.endLine ?? 0) + 1}\`` : '(an item no longer known)');

/** The last Copilot context request: the items given, and what Copilot used of the request before. */
export function renderCopilot(rec: CopilotContextRecord): string {
  const out = [
    '## Context given to GitHub Copilot', '',
    `For ${rec.source === 'nes' ? 'a next-edit suggestion' : 'a completion'} at \`${rec.file}:${rec.line + 1}\` (${rec.time.toLocaleTimeString()}), budget ${rec.budgetMs} ms: **${rec.answer}**, ${rec.items.length} item(s).`, '',
  ];
  for (const i of rec.items) out.push(`- ${lines(i)} importance ${i.importance}${i.copies ? `, ${i.copies} more file(s) with a copy` : ''}`);
  const u = rec.previousUsage;
  if (u) {
    out.push('', `### What Copilot used of the request before (usage ${u.usage}, resolution ${u.resolution})`, '');
    for (const i of u.items) out.push(`- **${i.usage}** ${lines(i)}${i.expectedTokens !== undefined ? ` (${i.actualTokens} of ${i.expectedTokens} tokens)` : ''}`);
    if (!u.items.length) out.push('- (no item details reported)');
  }
  return out.join('\n') + '\n';
}

/** The document's text: why the last request showed nothing (if it did), then the last completion's context. */
export async function renderContextDocument(rec: RetrievedContextRecord | undefined, outcome: CompletionOutcome | undefined, copilot?: CopilotContextRecord): Promise<string> {
  const parts: string[] = [];
  if (copilot && !rec && !outcome?.reason) parts.push('# RepoRecall: retrieved context\n');
  const noSuggestion = outcome?.reason && (!rec || outcome.time >= rec.time) ? outcome : undefined;
  if (noSuggestion) parts.push(rec ? renderOutcome(noSuggestion) : `# RepoRecall: retrieved context\n\n${renderOutcome(noSuggestion)}\nNo completion has been shown yet.\n`);
  if (rec) parts.push(await renderContext(rec));
  if (copilot) parts.push(renderCopilot(copilot));
  return parts.join('\n');
}

export function registerShowContext(ctx: Ctx): vscode.Disposable {
  const contents = new Map<string, string>();
  let shown = 0;
  return combined(
    vscode.workspace.registerTextDocumentContentProvider(CONTEXT_SCHEME, { provideTextDocumentContent: (uri) => contents.get(uri.query) ?? '(this context is no longer kept; run Show Retrieved Context again)' }),
    vscode.workspace.onDidCloseTextDocument((d) => {
      if (d.uri.scheme === CONTEXT_SCHEME) contents.delete(d.uri.query);
    }),
    vscode.commands.registerCommand('reporecall.showRetrievedContext', async () => {
      // Turned off, the provider is not registered and VS Code asks nothing: why is said for the cursor.
      const editor = vscode.window.activeTextEditor;
      if (editor && !config.completionEnabled()) ctx.completions.gate(editor.document, editor.selection.active);
      const { completionContext, completionOutcome: outcome, copilotContext } = ctx.recorder;
      if (!completionContext && !outcome?.reason && !copilotContext) {
        void vscode.window.showInformationMessage('RepoRecall: no completion has been requested yet.');
        return undefined;
      }
      const content = await renderContextDocument(completionContext, outcome, copilotContext);
      const uri = contextUri(++shown);
      contents.set(uri.query, content);
      const doc = await vscode.workspace.openTextDocument(uri);
      await vscode.window.showTextDocument(doc, { preview: true, viewColumn: vscode.ViewColumn.Beside });
      return content;
    }),
  );
}
