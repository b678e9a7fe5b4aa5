// The contributed `reporecall.*` settings as package.json declares them, the one place their
// defaults and bounds are written, and how a raw value is read against that declaration: unset or
// of the wrong type reads as the declared default, a number is clamped to the declared minimum and
// maximum, a string outside a declared enum reads as the default. vscode-free, so unit-tested
// (test/unit/settings.test.ts checks config.ts reads every contributed setting this way).
import packageJson from '../../package.json';

export const SECTION = 'reporecall';

export interface Declared {
  type?: string | string[];
  default?: unknown;
  minimum?: number;
  maximum?: number;
  enum?: readonly unknown[];
}

/** Every contributed setting, by full key (`reporecall.completion.debounceMs`). */
export const DECLARED: Readonly<Record<string, Declared>> = (packageJson.contributes.configuration as { properties: Record<string, Declared> }).properties;

/** The declaration of `reporecall.<key>`; a key package.json does not contribute is a programming error. */
export function declared(key: string): Declared {
  const d = DECLARED[`${SECTION}.${key}`];
  if (!d) throw new Error(`${SECTION}.${key} is not contributed in package.json`);
  return d;
}

export function numberSetting(key: string, raw: unknown): number {
  const d = declared(key);
  if (typeof raw !== 'number' || !Number.isFinite(raw)) return d.default as number;
  return Math.min(d.maximum ?? Infinity, Math.max(d.minimum ?? -Infinity, raw));
}

export function stringSetting(key: string, raw: unknown): string {
  const d = declared(key);
  if (typeof raw !== 'string') return d.default as string;
  return d.enum && !d.enum.includes(raw) ? (d.default as string) : raw;
}

export function booleanSetting(key: string, raw: unknown): boolean {
  return typeof raw === 'boolean' ? raw : (declared(key).default as boolean);
}

export function stringArraySetting(key: string, raw: unknown): string[] {
  return Array.isArray(raw) ? raw.filter((x): x is string => typeof x === 'string') : [...(declared(key).default as string[])];
}

export function objectSetting(key: string, raw: unknown): Record<string, unknown> {
  return raw && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, unknown>) : { ...(declared(key).default as Record<string, unknown>) };
}
