// `reporecall mcp` as an agent meets it: the official SDK's Client over stdio against the real CLI
// process (bin/reporecall.js), on a workspace whose index does not exist yet. Calls made while the
// index builds wait for it with progress notifications, one of them cancelled; then each tool
// answers from the fixture, bad arguments and paths leaving the workspace are MCP errors, ignored
// and deny-listed files never come back and a planted secret is redacted.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ErrorCode, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { Engine } from '../../engine/src/engine';
import { LOCK_FILE_NAME } from '../../engine/src/store/lock';
import { PLANTED } from './plantedSecrets';
import { tempDir } from './tempDir';

const CLI = path.resolve(__dirname, '../../../bin/reporecall.js');
const FIXTURE = path.resolve(__dirname, '../../../test/fixtures/engine-repo');
const SECRET = PLANTED[0];

/** Enough generated modules that indexing them (parse and embed) outlasts a round trip or two. */
function generatedModules(root: string): void {
  for (let f = 0; f < 120; f++) {
    const body = Array.from({ length: 6 }, (_, i) => `export function step${f}x${i}(value: number): number {\n  // stage ${i} of pipeline ${f}\n  return value * ${i + 2} + ${f};\n}\n`).join('\n');
    fs.mkdirSync(path.join(root, 'gen'), { recursive: true });
    fs.writeFileSync(path.join(root, 'gen', `stage${f}.ts`), body);
  }
}

export function mcpWorkspace(prefix: string): { work: string; root: string; indexDir: string } {
  const work = tempDir(prefix);
  const root = path.join(work, 'repo');
  fs.cpSync(FIXTURE, root, { recursive: true });
  generatedModules(root);
  fs.mkdirSync(path.join(root, path.dirname(SECRET.file)), { recursive: true });
  fs.writeFileSync(path.join(root, SECRET.file), SECRET.text);
  // Ignored by .gitignore, and on the secret deny-list (`secrets.*`): each holds a word nothing else has.
  fs.writeFileSync(path.join(root, '.gitignore'), 'build_out/\n');
  fs.mkdirSync(path.join(root, 'build_out'));
  fs.writeFileSync(path.join(root, 'build_out', 'ledger.py'), 'def quokka_ledger_total(rows):\n    return sum(rows)\n');
  fs.mkdirSync(path.join(root, 'config'));
  fs.writeFileSync(path.join(root, 'config', 'secrets.py'), 'def zanzibar_token_value():\n    return "zanzibar"\n');
  // A file outside the workspace, and a link to it from inside.
  fs.writeFileSync(path.join(work, 'outside.py'), 'def outside_function():\n    return 1\n');
  fs.symlinkSync(path.join(work, 'outside.py'), path.join(root, 'escape.py'));
  return { work, root, indexDir: path.join(work, 'index') };
}

export async function connect(root: string, indexDir: string): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp', root, '--index-dir', indexDir], env: { ...process.env } as Record<string, string>, stderr: 'pipe' });
  let err = '';
  transport.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  const client = new Client({ name: 'reporecall-test', version: '0.0.0' });
  await client.connect(transport);
  return { client, stderr: () => err };
}

function text(r: unknown): string {
  return ((r as CallToolResult).content as Array<{ type: string; text?: string }>).map((c) => c.text ?? '').join('\n');
}

function data<T>(r: unknown): T {
  return (r as CallToolResult).structuredContent as T;
}

interface Hit { path: string; startLine: number; endLine: number; symbol?: string; excerpt: string; why: { signals: Record<string, number>; terms: string[] } }

describe('reporecall mcp (SDK client over stdio, real server)', function () {
  this.timeout(180_000);
  let ws: ReturnType<typeof mcpWorkspace>;
  let client: Client;
  let stderr: () => string;

  before(async () => {
    ws = mcpWorkspace('rr-mcp-');
    ({ client, stderr } = await connect(ws.root, ws.indexDir));
  });
  after(async () => {
    await client?.close();
    fs.rmSync(ws.work, { recursive: true, force: true });
  });

  it('lists the four tools, read-only, with descriptions and input schemas', async () => {
    const { tools } = await client.listTools();
    assert.deepStrictEqual(tools.map((t) => t.name).sort(), ['completion_context', 'find_definition', 'find_related', 'search_code']);
    for (const t of tools) {
      assert.ok((t.description ?? '').length > 100, `${t.name} has a description a model can act on`);
      assert.strictEqual(t.inputSchema.type, 'object');
      assert.strictEqual(t.annotations?.readOnlyHint, true);
    }
  });

  it('answers a call made while the index builds once it is built, with progress; a cancelled one ends', async () => {
    const progress: number[] = [];
    const answered = client.callTool({ name: 'search_code', arguments: { query: 'apply the discount code to an amount' } }, undefined, { onprogress: (p) => progress.push(p.progress), timeout: 170_000 });
    const cancel = new AbortController();
    const cancelled = client.callTool({ name: 'search_code', arguments: { query: 'warehouse stock' } }, undefined, { onprogress: () => cancel.abort('the agent moved on'), signal: cancel.signal, timeout: 170_000 });
    await assert.rejects(cancelled);
    const r = await answered;
    assert.ok(progress.length >= 1, 'progress notifications arrived while the index was built');
    assert.ok(progress.every((p, i) => i === 0 || p >= progress[i - 1]), 'progress only rises');
    assert.strictEqual(data<{ results: Hit[] }>(r).results[0].symbol, 'applyDiscount');
    // The server heard the cancellation (notifications/cancelled aborted the handler's signal).
    for (let i = 0; i < 50 && !/search_code: cancelled/.test(stderr()); i++) await new Promise((res) => setTimeout(res, 100));
    assert.match(stderr(), /search_code: cancelled after \d+ ms \(while the index was being built\)/);
  });

  it('search_code: path, line range, symbol, excerpt and why; filtered by glob and language', async () => {
    const r = await client.callTool({ name: 'search_code', arguments: { query: 'reserve units of a sku from the stock', limit: 3 } });
    const top = data<{ results: Hit[] }>(r).results[0];
    assert.strictEqual(top.path, 'lib/inventory.py');
    // The class is small enough to be one chunk: its name is the enclosing symbol.
    assert.strictEqual(top.symbol, 'Warehouse');
    assert.ok(top.excerpt.includes('def reserve(self, sku, amount):'));
    assert.ok(Object.keys(top.why.signals).length > 0 && top.why.terms.includes('reserve'));
    assert.match(text(r), /lib\/inventory\.py:1-\d+ class Warehouse \(matched by /);
    const py = data<{ results: Hit[] }>(await client.callTool({ name: 'search_code', arguments: { query: 'discount price total', language: 'py' } })).results;
    assert.ok(py.length > 0 && py.every((h) => h.path.endsWith('.py')), JSON.stringify(py.map((h) => h.path)));
    const lib = data<{ results: Hit[] }>(await client.callTool({ name: 'search_code', arguments: { query: 'discount price total', path: 'lib/' } })).results;
    assert.ok(lib.length > 0 && lib.every((h) => h.path.startsWith('lib/')), JSON.stringify(lib.map((h) => h.path)));
  });

  it('find_definition: resolved at a position, candidates by name', async () => {
    // checkout.py line 4: `def checkout(order, warehouse: Warehouse):`, the annotation's Warehouse.
    const at = await client.callTool({ name: 'find_definition', arguments: { path: 'src/checkout.py', line: 4, column: 32 } });
    const resolved = data<{ resolution: string; definitions: Array<{ path: string; startLine: number; declaration: string }> }>(at);
    assert.strictEqual(resolved.resolution, 'defines', text(at));
    assert.deepStrictEqual(resolved.definitions.map((d) => [d.path, d.startLine]), [['lib/inventory.py', 1]]);
    const named = data<{ resolution: string; definitions: Array<{ path: string }> }>(await client.callTool({ name: 'find_definition', arguments: { name: 'applyDiscount' } }));
    assert.strictEqual(named.resolution, 'candidates');
    assert.deepStrictEqual(named.definitions.map((d) => d.path), ['lib/pricing.ts']);
  });

  it('find_related: a symbol\'s definition and the code that uses it', async () => {
    const r = data<{ symbol: string; results: Array<{ path: string; relation: string; symbol?: string }> }>(await client.callTool({ name: 'find_related', arguments: { symbol: 'formatPrice' } }));
    assert.ok(r.results.some((h) => h.path === 'lib/pricing.ts' && h.symbol === 'formatPrice' && h.relation === 'defines it'), JSON.stringify(r.results));
    assert.ok(r.results.some((h) => h.path === 'src/cart.ts' && h.relation === 'mentions it'), JSON.stringify(r.results));
    // At a position: the name under the cursor (cart.ts line 16: `  return formatPrice(total);`); the chunk under the cursor is left out.
    const at = data<{ symbol: string; results: Array<{ path: string; startLine: number; endLine: number }> }>(await client.callTool({ name: 'find_related', arguments: { path: 'src/cart.ts', line: 16, column: 12 } }));
    assert.strictEqual(at.symbol, 'formatPrice');
    assert.ok(at.results.some((h) => h.path === 'lib/pricing.ts'));
    assert.ok(!at.results.some((h) => h.path === 'src/cart.ts' && h.startLine <= 16 && 16 <= h.endLine));
  });

  it('completion_context: the packed context of the completion pipeline, within the budget', async () => {
    // cart.ts line 15, `  total = applyDiscount(total, discountCode);`, cursor at its start.
    const r = data<{ budgetTokens: number; usedTokens: number; snippets: Array<{ path: string; text: string }> }>(await client.callTool({ name: 'completion_context', arguments: { path: 'src/cart.ts', line: 15, column: 1, budget_tokens: 200 } }));
    assert.strictEqual(r.budgetTokens, 200);
    assert.ok(r.usedTokens <= 200 && r.snippets.length > 0);
    assert.ok(r.snippets.some((s) => s.path === 'lib/pricing.ts' && s.text.includes('applyDiscount')), JSON.stringify(r.snippets));
  });

  it('answers invalid arguments with MCP invalid-params errors that say what is wrong', async () => {
    const cases: Array<[string, Record<string, unknown>, RegExp]> = [
      ['search_code', {}, /'query' is required/],
      ['search_code', { query: 'x', limit: 0 }, /'limit' must be a whole number from 1 to 25/],
      ['search_code', { query: 'x', language: 'klingon' }, /not a language RepoRecall indexes/],
      ['search_code', { query: 'x', colour: 'red' }, /unknown argument 'colour'/],
      ['find_definition', { path: 'src/cart.ts', line: 3 }, /'column'.*is required/],
      ['find_definition', { name: 'x', path: 'src/cart.ts' }, /give either 'name', or 'path'/],
      ['completion_context', { path: 'src/cart.ts', line: 999 }, /past the end of src\/cart\.ts/],
      ['no_such_tool', {}, /unknown tool 'no_such_tool'/],
    ];
    for (const [name, args, message] of cases) {
      await assert.rejects(client.callTool({ name, arguments: args }), (e: unknown) => {
        assert.ok(e instanceof McpError, `${name} ${JSON.stringify(args)}: ${e}`);
        assert.strictEqual(e.code, ErrorCode.InvalidParams);
        assert.match(e.message, message);
        return true;
      });
    }
  });

  it('refuses paths outside the workspace, symbolic-link escapes, ignored and deny-listed files', async () => {
    const cases: Array<[string, RegExp]> = [
      ['../outside.py', /leaves the workspace/],
      [path.join(ws.work, 'outside.py'), /outside the workspace/],
      ['escape.py', /link to a place outside the workspace/],
      ['config/secrets.py', /secret deny-list/],
      ['build_out/ledger.py', /not an indexed source file/],
    ];
    for (const [asked, message] of cases) {
      for (const tool of ['completion_context', 'find_related']) {
        await assert.rejects(client.callTool({ name: tool, arguments: { path: asked, line: 1 } }), (e: unknown) => e instanceof McpError && e.code === ErrorCode.InvalidParams && message.test(e.message), `${tool} ${asked}`);
      }
    }
  });

  it('never returns ignored or deny-listed files, and redacts a planted secret', async () => {
    for (const query of ['quokka ledger total', 'zanzibar token value', 'outside function']) {
      const r = await client.callTool({ name: 'search_code', arguments: { query, limit: 25 } });
      const paths = data<{ results: Hit[] }>(r).results.map((h) => h.path);
      assert.ok(!paths.some((p) => p.startsWith('build_out/') || p.startsWith('config/') || p === 'escape.py'), `${query}: ${paths.join(', ')}`);
      assert.ok(!/quokka|zanzibar|outside_function/.test(text(r)), query);
    }
    for (const args of [{ name: 'search_code', arguments: { query: 'sms client twilio' } }, { name: 'find_definition', arguments: { name: 'smsClient' } }, { name: 'find_related', arguments: { symbol: 'smsClient' } }]) {
      const r = await client.callTool(args);
      const all = text(r) + JSON.stringify(r.structuredContent);
      assert.ok(all.includes(SECRET.file), `${args.name} found the file holding the secret`);
      assert.ok(!all.includes(SECRET.secret), `${args.name} leaked the secret`);
      assert.match(all, /<redacted:/);
    }
  });
});

describe('reporecall mcp beside an editor that writes the index', function () {
  this.timeout(180_000);

  it('reads the editor\'s index without taking its writer lock', async () => {
    const ws = mcpWorkspace('rr-mcp-editor-');
    // The editor's engine: it built the index and holds the writer lock.
    const editor = await Engine.open({ root: ws.root, indexDir: ws.indexDir, dense: false });
    try {
      await editor.indexAll();
      await editor.flush();
      const lock = fs.readFileSync(path.join(ws.indexDir, LOCK_FILE_NAME), 'utf8');
      const { client, stderr } = await connect(ws.root, ws.indexDir);
      try {
        const r = await client.callTool({ name: 'find_definition', arguments: { name: 'applyDiscount' } });
        assert.deepStrictEqual(data<{ definitions: Array<{ path: string }> }>(r).definitions.map((d) => d.path), ['lib/pricing.ts']);
        assert.match(stderr(), /read the index at /);
      } finally {
        await client.close();
      }
      assert.strictEqual(fs.readFileSync(path.join(ws.indexDir, LOCK_FILE_NAME), 'utf8'), lock, 'the lock is still the editor\'s');
      assert.ok(editor.writable);
      await editor.updateFile('src/cart.ts');
      await editor.flush();
    } finally {
      await editor.close();
      fs.rmSync(ws.work, { recursive: true, force: true });
    }
  });
});
