// The switches over inline completions: snooze (5/15/60 min, kept across reloads), on/off per
// language (reporecall.completion.languages, `{"*": true, "markdown": false}` like
// github.copilot.enable), one toggle for all (reporecall.completion.enabled), and the record of why
// a request showed no suggestion. Owned by Ctx (features read it, the status bar listens to it);
// the commands that drive it are features/completionControl.ts.
import * as vscode from 'vscode';
import { config } from './config';
import type { NoSuggestionReason } from './completionState';
import type { Recorder } from './recorder';
import { stepsAsideForCopilot } from './features/copilotPresence';

/** What the switches need of the extension's context (Ctx provides it; no import of ctx.ts). */
export interface SwitchesHost {
  globalState: vscode.Memento;
  log: vscode.LogOutputChannel;
  recorder: Recorder;
  /** The workspace-relative path of `uri` in its indexed folder, if it is in one. */
  relPathOf(uri: vscode.Uri): string | undefined;
}

const SNOOZE_KEY = 'reporecall.snoozedUntil';
export const SNOOZE_CHOICES_MIN = [5, 15, 60] as const;

export class CompletionControl implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires when the snooze, the toggle or a language switch changes. */
  readonly onDidChange = this.changed.event;
  /** The built-in source's last abstention (it found code to continue from but declined), and why. */
  private abstention: { file: string; line: number; why: string } | undefined;
  private expiry: NodeJS.Timeout | undefined;

  constructor(private readonly host: SwitchesHost) {
    this.scheduleExpiry();
  }

  /** Epoch ms the snooze ends, or undefined when not snoozed. */
  get snoozedUntil(): number | undefined {
    const until = this.host.globalState.get<number>(SNOOZE_KEY);
    return until !== undefined && until > Date.now() ? until : undefined;
  }

  /** Whole minutes of snooze left (rounded up), or 0. */
  snoozeMinutesLeft(): number {
    const until = this.snoozedUntil;
    return until === undefined ? 0 : Math.ceil((until - Date.now()) / 60_000);
  }

  async snooze(minutes: number): Promise<void> {
    if (!Number.isFinite(minutes) || minutes <= 0) throw new Error(`RepoRecall: snooze needs a positive number of minutes (got ${String(minutes)})`);
    await this.host.globalState.update(SNOOZE_KEY, Date.now() + minutes * 60_000);
    this.host.log.info(`completions snoozed for ${minutes} min`);
    this.scheduleExpiry();
    this.changed.fire();
  }

  async resume(): Promise<void> {
    await this.host.globalState.update(SNOOZE_KEY, undefined);
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
    const file = this.host.relPathOf(doc.uri) ?? doc.uri.path;
    this.host.recorder.completionOutcome = { time: new Date(), file, line: pos.line, languageId: doc.languageId, reason, detail };
    if (reason) this.host.log.debug(`no suggestion at ${file}:${pos.line + 1}: ${reason}${detail ? ` (${detail})` : ''}`);
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
