// Every model backend in one place (ARCHITECTURE.md "Add a model backend"): the value of
// `reporecall.completion.backend` that picks it, the settings it reads, and how it is built from
// them. package.json declares those settings (defaults, bounds, the enum); test/unit/settings.test.ts
// fails until the declarations and this table agree.
import { FIM_FAMILIES } from './fim';
import { LanguageModelBackend } from './languageModel';
import { LlamaCppInfillBackend } from './llamacpp';
import { OllamaGenerateBackend } from './ollama';
import { OpenAiCompletionsBackend, type FimSetting } from './openai';
import type { CompletionBackend } from './types';

/** The secret (VS Code SecretStorage) holding the OpenAI-compatible endpoint's API key. */
export const OPENAI_KEY_SECRET = 'reporecall.openai.apiKey';

/** What building a backend reads: its settings, read against their declarations (config.ts). */
export interface BackendInputs {
  /** A string setting under `reporecall.` (one of the entry's `settings`). */
  setting(key: string): string;
  secret(key: string): Promise<string | undefined>;
  /** `reporecall.redaction.loopback`: redact requests to a server on this machine too. */
  redactLoopback: boolean;
}

export interface BackendEntry {
  /** Its settings under `reporecall.`, each declared in package.json. */
  settings: readonly string[];
  /** The setting naming its server, restricted in an untrusted workspace (package.json `restrictedConfigurations`). */
  urlSetting?: string;
  create(inputs: BackendInputs): Promise<CompletionBackend>;
}

/** An unknown template reads as `auto` (the declared default): the model's name picks it. */
function fimSetting(value: string): FimSetting {
  return value === 'none' || (FIM_FAMILIES as readonly string[]).includes(value) ? (value as FimSetting) : 'auto';
}

export const MODEL_BACKENDS = {
  openai: {
    settings: ['openai.baseUrl', 'openai.model', 'openai.fimTemplate'],
    urlSetting: 'openai.baseUrl',
    create: async (i) => new OpenAiCompletionsBackend({
      baseUrl: i.setting('openai.baseUrl'),
      model: i.setting('openai.model'),
      apiKey: await i.secret(OPENAI_KEY_SECRET),
      fim: fimSetting(i.setting('openai.fimTemplate')),
      redactLoopback: i.redactLoopback,
    }),
  },
  llamacpp: {
    settings: ['llamacpp.baseUrl'],
    urlSetting: 'llamacpp.baseUrl',
    create: async (i) => new LlamaCppInfillBackend({ baseUrl: i.setting('llamacpp.baseUrl'), redactLoopback: i.redactLoopback }),
  },
  ollama: {
    settings: ['ollama.baseUrl', 'ollama.model'],
    urlSetting: 'ollama.baseUrl',
    create: async (i) => new OllamaGenerateBackend({ baseUrl: i.setting('ollama.baseUrl'), model: i.setting('ollama.model'), redactLoopback: i.redactLoopback }),
  },
  'vscode-lm': {
    settings: ['languageModel.family'],
    create: async (i) => new LanguageModelBackend(i.setting('languageModel.family')),
  },
} satisfies Record<string, BackendEntry>;

export type ModelBackendKind = keyof typeof MODEL_BACKENDS;
/** `reporecall.completion.backend`: the engine's own completion, or a model backend. */
export type CompletionBackendKind = 'builtin' | ModelBackendKind;

export function modelBackendEntry(kind: ModelBackendKind): BackendEntry {
  return MODEL_BACKENDS[kind];
}
