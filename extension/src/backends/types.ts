// A model backend turns a built prompt into a continuation. vscode-free.

/** One retrieved snippet as a backend receives it. */
export interface ContextFile {
  /** Workspace-relative path. */
  filename: string;
  text: string;
  /** 0-based line range of the snippet in its file, when known. */
  startLine?: number;
  endLine?: number;
}

/**
 * The pieces of a fill-in-the-middle request, for backends that lay them out themselves (llama.cpp's
 * /infill, raw FIM templates): the retrieved snippets, the current file and the text around the cursor.
 */
export interface FimParts {
  /** Retrieved snippets, in prompt order (already within the context budget). */
  context: ContextFile[];
  /** Workspace-relative path of the file being edited. */
  file: string;
  /** Line-comment marker of the file's language (`//`, `#`, `--`). */
  comment: string;
  /** The file's text before the cursor, within the prefix budget. */
  prefix: string;
  /** The file's text after the cursor, within the suffix budget. */
  suffix: string;
  /** Name of the repository (workspace folder), for repo-level formats. */
  repoName?: string;
}

export interface BackendRequest {
  /** The flat prompt: retrieved snippets as comments, then the file's prefix. */
  prompt: string;
  suffix: string;
  /** The same content in pieces (absent for a plain continuation such as the HyDE guess). */
  parts?: FimParts;
  maxTokens: number;
  /** Sequences the model must stop at. */
  stop?: string[];
  signal?: AbortSignal;
  timeoutMs: number;
  /** Sampling temperature for this request; default the backend's own (0.2). */
  temperature?: number;
}

export interface CompletionBackend {
  readonly name: string;
  /** The server's base URL, when the backend talks to one (decides whether requests are redacted, http.ts). */
  readonly endpoint?: string;
  /** Returns the raw continuation text ('' when the model produced nothing). */
  complete(req: BackendRequest): Promise<string>;
}

export class BackendError extends Error {
  constructor(message: string, readonly status?: number) {
    super(message);
    this.name = 'BackendError';
  }
}

/** Width of a line's leading whitespace in columns (a tab counts 4). */
export function indentWidth(line: string): number {
  let w = 0;
  for (const ch of line) {
    if (ch === ' ') w++;
    else if (ch === '\t') w += 4;
    else break;
  }
  return w;
}
