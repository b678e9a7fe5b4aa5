// The four tools as an agent sees them: name, model-facing description and JSON Schema of the
// arguments. The MCP server (mcp/server.ts) lists these; package.json's languageModelTools repeat
// them for VS Code's agent mode (test/unit/agentTools.test.ts holds the two equal).
import { DEFAULT_CONTEXT_TOKENS, DEFAULT_RESULTS, MAX_CONTEXT_TOKENS, MAX_RESULTS } from './limits';

export type AgentToolName = 'search_code' | 'find_definition' | 'find_related' | 'completion_context';

export interface AgentToolSpec {
  name: AgentToolName;
  title: string;
  description: string;
  inputSchema: { type: 'object'; properties: Record<string, object>; required?: string[]; additionalProperties: false };
}

const PATH = { type: 'string', description: 'File path relative to the workspace root, e.g. "src/auth/session.ts".' };
const LINE = { type: 'integer', minimum: 1, description: '1-based line number.' };
const COLUMN = { type: 'integer', minimum: 1, description: '1-based column of a character of the name on that line.' };
const LIMIT = { type: 'integer', minimum: 1, maximum: MAX_RESULTS, description: `How many results to return (default ${DEFAULT_RESULTS}, at most ${MAX_RESULTS}).` };

export const AGENT_TOOLS: readonly AgentToolSpec[] = [
  {
    name: 'search_code',
    title: 'Search code',
    description: 'Search this repository\'s code by meaning and by identifiers, offline. The query can be a plain-language description ("where expired sessions are refreshed") or code ("refreshToken(user)"). Returns the best-matching functions, methods and classes: path, 1-based line range, enclosing symbol, an excerpt of the most relevant lines, and why each matched (retrieval signal ranks and the query terms found). Use it before grep when you do not know the exact names. Filter with `path` (a gitignore-style glob such as "src/**/*.py" or "tests/") and `language` (python, typescript, go, ... or an extension like "py").',
    inputSchema: { type: 'object', properties: { query: { type: 'string', description: 'What to find: words or code.' }, path: { type: 'string', description: 'Only files matching this gitignore-style glob, e.g. "src/**/*.ts", "tests/", "*.py".' }, language: { type: 'string', description: 'Only files of this language: a language id (python, typescript, go, rust, java, ...) or a file extension (py, ts).' }, limit: LIMIT }, required: ['query'], additionalProperties: false },
  },
  {
    name: 'find_definition',
    title: 'Find definition',
    description: 'Find where a name is defined in this repository. Best: give `path`, `line` and `column` of a place where the name is used; the name is then resolved as code (imports, re-exports, self/this, declared types in Python, TypeScript and JavaScript) and `resolution` is "defines" only when the definition was resolved. Otherwise, or when you give only `name` (e.g. "parse_config" or "Session.refresh"), the answer is "candidates": definitions with that name, any of which may be meant. "external" means it is defined outside the repository. Each definition comes with its declaration, doc comment and code.',
    inputSchema: { type: 'object', properties: { name: { type: 'string', description: 'The name to look up (a function, class, method as "Class.method", type or variable); instead of path/line/column.' }, path: PATH, line: LINE, column: COLUMN, limit: LIMIT }, additionalProperties: false },
  },
  {
    name: 'find_related',
    title: 'Find related code',
    description: 'Find code related to a symbol or to a place in a file: its definition, the code that calls or mentions it, and similar code elsewhere in the repository (what RepoRecall\'s Find Related Code shows in the editor). Give `symbol` (a name), or `path` and `line` (and `column` on the name). Each result says how it relates: "defines it", "mentions it" or "similar code".',
    inputSchema: { type: 'object', properties: { symbol: { type: 'string', description: 'A name to find related code for; instead of path/line.' }, path: PATH, line: LINE, column: COLUMN, limit: LIMIT }, additionalProperties: false },
  },
  {
    name: 'completion_context',
    title: 'Completion context',
    description: `The repository context RepoRecall would give a code model completing code at a position: the most relevant snippets from other files and other parts of this file (definitions, similar code, what analogous code continues with), packed into a token budget. Use it before writing code at that place to see the APIs and patterns it needs. Give \`path\`, \`line\` (1-based) and optionally \`column\` (default: the end of the line) and \`budget_tokens\` (default ${DEFAULT_CONTEXT_TOKENS}, at most ${MAX_CONTEXT_TOKENS}; 4 characters a token).`,
    inputSchema: { type: 'object', properties: { path: PATH, line: LINE, column: { type: 'integer', minimum: 1, description: '1-based column of the cursor (default: the end of the line).' }, budget_tokens: { type: 'integer', minimum: 1, maximum: MAX_CONTEXT_TOKENS, description: `Token budget of the context (default ${DEFAULT_CONTEXT_TOKENS}).` } }, required: ['path', 'line'], additionalProperties: false },
  },
];
