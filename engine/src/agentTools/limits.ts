// Bounds and argument checks shared by the agent tools (search_code, find_definition, find_related,
// completion_context). An agent is a remote model: every answer is bounded in size, and a bad
// argument is a ToolInputError whose message says what to send instead (MCP: invalid params).

/** Results one call returns by default, and at most (`limit`). */
export const DEFAULT_RESULTS = 8;
export const MAX_RESULTS = 25;
/** Lines and characters of one result's excerpt; longer code is cut and says so. */
export const MAX_EXCERPT_LINES = 40;
export const MAX_EXCERPT_CHARS = 4000;
/** Characters of one whole answer (about 12k tokens); results past it are dropped and `truncated` is set. */
export const MAX_ANSWER_CHARS = 48_000;
/** Longest query text accepted. */
export const MAX_QUERY_CHARS = 4000;
/** completion_context's token budget: the editor's default (reporecall.completion.contextTokens) and the most allowed. */
export const DEFAULT_CONTEXT_TOKENS = 1024;
export const MAX_CONTEXT_TOKENS = 8192;

/** An argument the tool cannot use as given. */
export class ToolInputError extends Error {
  override name = 'ToolInputError';
}

type Input = Record<string, unknown>;

/** The arguments object, with no property beyond `known`. */
export function argsObject(input: unknown, known: readonly string[]): Input {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) throw new ToolInputError('arguments must be a JSON object');
  const extra = Object.keys(input).filter((k) => !known.includes(k));
  if (extra.length) throw new ToolInputError(`unknown argument${extra.length > 1 ? 's' : ''} ${extra.map((k) => `'${k}'`).join(', ')} (known: ${known.join(', ')})`);
  return input as Input;
}

export function optionalString(input: Input, name: string, maxChars = MAX_QUERY_CHARS): string | undefined {
  const v = input[name];
  if (v === undefined) return undefined;
  if (typeof v !== 'string' || !v.trim()) throw new ToolInputError(`'${name}' must be a non-empty string`);
  if (v.length > maxChars) throw new ToolInputError(`'${name}' is ${v.length} characters; at most ${maxChars}`);
  return v;
}

export function requiredString(input: Input, name: string, maxChars = MAX_QUERY_CHARS): string {
  const v = optionalString(input, name, maxChars);
  if (v === undefined) throw new ToolInputError(`'${name}' is required`);
  return v;
}

export function optionalInt(input: Input, name: string, min: number, max: number): number | undefined {
  const v = input[name];
  if (v === undefined) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) throw new ToolInputError(`'${name}' must be a whole number from ${min} to ${max}`);
  return v;
}

/** The arguments of a tool asked about a name or a place (exactly one of `nameKey` and `path`), and its `limit`. */
export function nameOrPlace(raw: unknown, known: readonly string[], nameKey: string, placeHint: string): { input: Input; name: string | undefined; limit: number } {
  const input = argsObject(raw, known);
  const limit = optionalInt(input, 'limit', 1, MAX_RESULTS) ?? DEFAULT_RESULTS;
  const name = optionalString(input, nameKey, 200);
  if ((name === undefined) === (input.path === undefined)) throw new ToolInputError(`give either '${nameKey}', or 'path' with ${placeHint}`);
  return { input, name, limit };
}

/** Text cut to `maxLines` lines and `maxChars` characters, saying how much was left out. */
export function boundedExcerpt(text: string, maxLines = MAX_EXCERPT_LINES, maxChars = MAX_EXCERPT_CHARS): string {
  const lines = text.split('\n');
  const out = lines.slice(0, maxLines).join('\n').slice(0, maxChars);
  const more = lines.length - out.split('\n').length;
  if (more > 0) return `${out}\n… (${more} more lines not shown)`;
  return out.length < text.length ? `${out}\n… (cut at ${maxChars} characters)` : out;
}

/** The leading items whose JSON fits `maxChars` together (at least one), and whether any were dropped. */
export function fitAnswer<T>(items: readonly T[], maxChars = MAX_ANSWER_CHARS): { items: T[]; truncated: boolean } {
  const kept: T[] = [];
  let size = 0;
  for (const item of items) {
    size += JSON.stringify(item).length;
    if (kept.length && size > maxChars) return { items: kept, truncated: true };
    kept.push(item);
  }
  return { items: kept, truncated: false };
}

/** Throws the AbortError of an aborted signal (the engine's requests end the same way). */
export function checkAborted(signal: AbortSignal | undefined): void {
  signal?.throwIfAborted();
}
