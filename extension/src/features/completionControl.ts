// Control over inline completions: snooze (5/15/60 min, kept across reloads), on/off per language
// (reporecall.completion.languages, `{"*": true, "markdown": false}` like github.copilot.enable),
// one toggle for all (reporecall.completion.enabled), and why the last request showed no
// suggestion (Show Retrieved Context, debug log).
import * as vscode from 'vscode';
import { config } from '../config';
import type { Ctx } from '../ctx';
import type { CompletionOutcome, CompletionSwitches, NoSuggestionReason } from '../completionState';
import { stepsAsideForCopilot } from './copilotPresence';

export type { CompletionOutcome, NoSuggestionReason };

const SNOOZE_KEY = 'reporecall.snoozedUntil';
export const SNOOZE_CHOICES_MIN = [5, 15, 60] as const;

export class CompletionControl implements vscode.Disposable, CompletionSwitches {
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires when the snooze, the toggle or a language switch changes. */
  readonly onDidChange = this.changed.event;
  /** The last request's outcome (a suggestion, or why none). */
  lastOutcome: CompletionOutcome | undefined;
  /** The built-in source's last abstention (it found code to continue from but declined), and why. */
  private abstention: { file: string; line: number; why: string } | undefined;
  private expiry: NodeJS.Timeout | undefined;

  constructor(private readonly ctx: Ctx) {
    this.scheduleExpiry();
  }

  /** Epoch ms the snooze ends, or undefined when not snoozed. */
  get snoozedUntil(): number | undefined {
    const until = this.ctx.extension.globalState.get<number>(SNOOZE_KEY);
    return until !== undefined && until > Date.now() ? until : undefined;
  }

  /** Whole minutes of snooze left (rounded up), or 0. */
  snoozeMinutesLeft(): number {
    const until = this.snoozedUntil;
    return until === undefined ? 0 : Math.ceil((until - Date.now()) / 60_000);
  }

  async snooze(minutes: number): Promise<void> {
    if (!Number.isFinite(minutes) || minutes <= 0) throw new Error(`RepoRecall: snooze needs a positive number of minutes (got ${String(minutes)})`);
    await this.ctx.extension.globalState.update(SNOOZE_KEY, Date.now() + minutes * 60_000);
    this.ctx.log.info(`completions snoozed for ${minutes} min`);
    this.scheduleExpiry();
    this.changed.fire();
  }

  async resume(): Promise<void> {
    await this.ctx.extension.globalState.update(SNOOZE_KEY, undefined);
    this.scheduleExpiry();
    this.changed.fire();
  }

  /** Status bar refresh when the snooze ends (the countdown itself is refreshed by the status bar). */
  private scheduleExpiry(): void {
    if (this.expiry) clearTimeout(this.expiry);
    this.expiry = undefined;
    const until = this.snoozedUntil;
    if (until !== undefined) this.expiry = setTimeout(() => this.changed.fire(), until - Date.now() + 50);
  }

  async toggle(): Promise<boolean> {
    const on = !config.completionEnabled();
    await vscode.workspace.getConfiguration('reporecall').update('completion.enabled', on, vscode.ConfigurationTarget.Global);
    if (on && this.snoozedUntil !== undefined) await this.resume();
    this.changed.fire();
    return on;
  }

  /** Turns completions on or off for one language (an entry in reporecall.completion.languages). */
  async setLanguage(languageId: string, enabled: boolean): Promise<void> {
    if (!/^[\w.+#-]+$/.test(languageId)) throw new Error(`RepoRecall: "${languageId}" is not a language id`);
    const cfg = vscode.workspace.getConfiguration('reporecall');
    const current = { ...(cfg.inspect<Record<string, boolean>>('completion.languages')?.globalValue ?? {}) };
    current[languageId] = enabled;
    await cfg.update('completion.languages', current, vscode.ConfigurationTarget.Global);
    this.changed.fire();
  }

  /** Why completions are held back for a language right now, if they are. */
  blocked(languageId: string): { reason: NoSuggestionReason; detail: string } | undefined {
    if (!config.completionEnabled()) return { reason: 'completions off', detail: 'reporecall.completion.enabled is false ("RepoRecall: Toggle Completions" turns them on)' };
    const left = this.snoozeMinutesLeft();
    if (left > 0) return { reason: 'snoozed', detail: `snoozed, ${left} min left ("RepoRecall: Resume Completions" ends it)` };
    if (!config.completionEnabledFor(languageId)) return { reason: 'language disabled', detail: `off for ${languageId} in reporecall.completion.languages` };
    if (stepsAsideForCopilot(languageId)) return { reason: 'context for Copilot', detail: `GitHub Copilot's inline completions are on for ${languageId}: RepoRecall gives them context and shows no ghost text of its own (reporecall.completion.withCopilot "both" shows both)` };
    return undefined;
  }

  /**
   * The gate at the top of provideInlineCompletionItems: true (and the reason recorded) when
   * completions are off, snoozed or off for the document's language.
   */
  gate(doc: vscode.TextDocument, pos: vscode.Position): boolean {
    const why = this.blocked(doc.languageId);
    if (why) this.record(doc, pos, why.reason, why.detail);
    return why !== undefined;
  }

  /** Called by the completion source when the engine abstained at `file:line`, saying why. */
  noteAbstention(file: string, line: number, why: string): void {
    this.abstention = { file, line, why };
  }

  /** The abstention noted for this request's place, once. */
  takeAbstention(file: string | undefined, line: number): string | undefined {
    const a = this.abstention;
    this.abstention = undefined;
    return a && a.file === file && a.line === line ? a.why : undefined;
  }

  record(doc: vscode.TextDocument, pos: vscode.Position, reason?: NoSuggestionReason, detail?: string): void {
    const file = this.ctx.folderFor(doc.uri)?.relPath(doc.uri) ?? doc.uri.path;
    this.lastOutcome = { time: new Date(), file, line: pos.line, languageId: doc.languageId, reason, detail };
    if (reason) this.ctx.log.debug(`no suggestion at ${file}:${pos.line + 1}: ${reason}${detail ? ` (${detail})` : ''}`);
  }

  /** Tells listeners (the status bar) that settings behind the gate changed. */
  refresh(): void {
    this.changed.fire();
  }

  dispose(): void {
    if (this.expiry) clearTimeout(this.expiry);
    this.changed.dispose();
  }
}

/**
 * Records why a request of `provider` showed nothing, without touching its body: the instance's
 * provideInlineCompletionItems is wrapped (VS Code and the test API both call it by name on the
 * object). Requests stopped by the gate were recorded there.
 */
export function explainOutcomes(ctx: Ctx, control: CompletionControl, provider: vscode.InlineCompletionItemProvider): void {
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

export function registerCompletionControl(ctx: Ctx): CompletionControl {
  const control = new CompletionControl(ctx);
  const activeLanguage = (): string | undefined => vscode.window.activeTextEditor?.document.languageId;
  ctx.push(
    control,
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
  return control;
}
