// The commands over inline completions (snooze, resume, toggle, per language; the switches
// themselves are ../completionSwitches.ts, owned by Ctx), and why the last request showed no
// suggestion (Show Retrieved Context, debug log).
import * as vscode from 'vscode';
import { config } from '../config';
import type { Ctx } from '../ctx';
import { combined } from '../dispose';
import { SNOOZE_CHOICES_MIN } from '../completionSwitches';

export { SNOOZE_CHOICES_MIN };

/**
 * Records why a request of `provider` showed nothing, without touching its body: the instance's
 * provideInlineCompletionItems is wrapped (VS Code and the test API both call it by name on the
 * object). Requests stopped by the gate were recorded there.
 */
export function explainOutcomes(ctx: Ctx, provider: vscode.InlineCompletionItemProvider): void {
  const control = ctx.completions;
  const inner = provider.provideInlineCompletionItems.bind(provider);
  provider.provideInlineCompletionItems = async (doc, pos, context, token) => {
    const started = Date.now();
    const result = await inner(doc, pos, context, token);
    const items = Array.isArray(result) ? result : result?.items;
    if (control.blocked(doc.languageId)) return result; // the gate recorded why
    if (token.isCancellationRequested) {
      // VS Code does not show the answer to a cancelled request; none is given.
      control.record(doc, pos, 'cancelled', 'typing went on (or the editor moved) before the answer');
      return undefined;
    } else if (items?.length) {
      control.record(doc, pos);
    } else {
      const fi = ctx.folderFor(doc.uri);
      const backend = config.backend();
      const elapsed = Date.now() - started;
      if (!fi || fi.relPath(doc.uri) === undefined) control.record(doc, pos, 'not indexed', 'the file is not in an indexed workspace folder');
      else if (!fi.canServe) control.record(doc, pos, 'not indexed', `the index is ${fi.state}`);
      else if (backend !== 'builtin' && elapsed >= config.backendTimeoutMs()) control.record(doc, pos, 'backend timeout', `the ${backend} backend did not answer within ${config.backendTimeoutMs()} ms`);
      else {
        const abstained = control.takeAbstention(fi.relPath(doc.uri), pos.line);
        if (abstained) control.record(doc, pos, 'abstained', abstained);
        else control.record(doc, pos, 'no match', backend === 'builtin'
          ? 'the engine found no repository code that continues the lines before the cursor'
          : `the ${backend} backend returned nothing usable`);
      }
    }
    return result;
  };
}

export function registerCompletionControl(ctx: Ctx): vscode.Disposable {
  const control = ctx.completions;
  const activeLanguage = (): string | undefined => vscode.window.activeTextEditor?.document.languageId;
  return combined(
    vscode.commands.registerCommand('reporecall.snoozeCompletions', async (minutes?: number) => {
      let m = minutes;
      if (m === undefined) {
        const pick = await vscode.window.showQuickPick(SNOOZE_CHOICES_MIN.map((n) => ({ label: `${n} minutes`, minutes: n })), { title: 'RepoRecall: Snooze Completions' });
        if (!pick) return undefined;
        m = pick.minutes;
      }
      await control.snooze(Number(m));
      return control.snoozedUntil;
    }),
    vscode.commands.registerCommand('reporecall.resumeCompletions', () => control.resume()),
    vscode.commands.registerCommand('reporecall.toggleCompletions', () => control.toggle()),
    vscode.commands.registerCommand('reporecall.toggleCompletionsForLanguage', async (languageId?: string) => {
      const lang = languageId ?? activeLanguage();
      if (!lang) {
        void vscode.window.showInformationMessage('RepoRecall: open a file to turn completions on or off for its language.');
        return undefined;
      }
      const enabled = !config.completionEnabledFor(lang);
      await control.setLanguage(lang, enabled);
      return enabled;
    }),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('reporecall.completion') || e.affectsConfiguration('github.copilot.enable') || e.affectsConfiguration('editor.inlineSuggest.enabled')) control.refresh();
    }),
  );
}
