// VS Code Language Model API backend (models contributed by other extensions, e.g. Copilot).
// Chat models have no fill-in-the-middle mode, so the prompt asks for the missing text only.
import * as vscode from 'vscode';
import { redactSecrets } from './redact';
import { BackendError, type BackendRequest, type CompletionBackend } from './types';

export function languageModelApiAvailable(): boolean {
  return typeof (vscode as { lm?: { selectChatModels?: unknown } }).lm?.selectChatModels === 'function';
}

export class LanguageModelBackend implements CompletionBackend {
  readonly name = 'vscode-lm';
  constructor(private readonly family: string) {}

  async complete(req: BackendRequest): Promise<string> {
    if (!languageModelApiAvailable()) throw new BackendError('the VS Code Language Model API is not available in this VS Code');
    const models = await vscode.lm.selectChatModels(this.family ? { family: this.family } : {});
    const model = models[0];
    if (!model) throw new BackendError(`no language model available${this.family ? ` for family "${this.family}"` : ''}`);
    const source = new vscode.CancellationTokenSource();
    const timer = setTimeout(() => source.cancel(), req.timeoutMs);
    const onAbort = (): void => source.cancel();
    req.signal?.addEventListener('abort', onAbort, { once: true });
    try {
      // Where the model runs is the providing extension's business (often a remote service): secrets are always redacted.
      const instruction =
        'Complete the code at <CURSOR>. Reply with only the text to insert at <CURSOR>, no explanation, no code fences.\n\n' +
        redactSecrets(`${req.prompt}<CURSOR>${req.suffix}`).text;
      const response = await model.sendRequest([vscode.LanguageModelChatMessage.User(instruction)], {}, source.token);
      let text = '';
      for await (const part of response.text) {
        text += part;
        if (text.length > req.maxTokens * 4) break;
      }
      return text.replace(/^```\w*\n?/, '').replace(/\n?```\s*$/, '');
    } finally {
      clearTimeout(timer);
      req.signal?.removeEventListener('abort', onAbort);
      source.dispose();
    }
  }
}
