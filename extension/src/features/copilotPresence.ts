// Whether GitHub Copilot is here and shows its own ghost text: the extension that exports the
// context provider API (`github.copilot`, or `github.copilot-chat` since the two merged), and
// `github.copilot.enable` for a language (its default: on for every language but plaintext,
// markdown and scminput). RepoRecall's own ghost text steps aside while it is on
// (reporecall.completion.withCopilot), so two ghost texts never fight.
import * as vscode from 'vscode';
import { config } from '../config';

/** The Copilot extensions that export getContextProviderAPI, in the order they are tried. */
export const COPILOT_EXTENSION_IDS = ['github.copilot', 'github.copilot-chat'] as const;

/** Copilot's own default for `github.copilot.enable` where the user set nothing. */
const COPILOT_OFF_BY_DEFAULT = new Set(['plaintext', 'markdown', 'scminput']);

/** The installed, active Copilot extension, if any. */
export function activeCopilot(): vscode.Extension<unknown> | undefined {
  for (const id of COPILOT_EXTENSION_IDS) {
    const ext = vscode.extensions.getExtension(id);
    if (ext?.isActive) return ext;
  }
  return undefined;
}

/** Whether Copilot's inline completions are on for a language (Copilot active, enabled for it, inline suggestions on). */
export function copilotInlineOn(languageId: string): boolean {
  if (!activeCopilot()) return false;
  if (!vscode.workspace.getConfiguration('editor').get<boolean>('inlineSuggest.enabled', true)) return false;
  const enable = vscode.workspace.getConfiguration('github.copilot').get<Record<string, unknown>>('enable');
  const own = enable && typeof enable === 'object' ? enable[languageId] : undefined;
  const any = enable && typeof enable === 'object' ? enable['*'] : undefined;
  if (typeof own === 'boolean') return own;
  if (COPILOT_OFF_BY_DEFAULT.has(languageId)) return false;
  return typeof any === 'boolean' ? any : true;
}

/** Whether RepoRecall's own ghost text steps aside for Copilot's in this language. */
export function stepsAsideForCopilot(languageId: string): boolean {
  return config.withCopilot() === 'context' && copilotInlineOn(languageId);
}
