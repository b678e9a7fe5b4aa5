// The MCP Inspector's command-line client (@modelcontextprotocol/inspector-cli, the protocol's own
// debugging tool) against the real `reporecall mcp`: it lists the tools and calls one, as a user
// checking a server set-up would.
import * as assert from 'assert';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { tempDir } from './tempDir';

const CLI = path.resolve(__dirname, '../../../bin/reporecall.js');
const FIXTURE = path.resolve(__dirname, '../../../test/fixtures/engine-repo');
const INSPECTOR = path.dirname(require.resolve('@modelcontextprotocol/inspector-cli/build/index.js'));

/** Runs the inspector in CLI mode; the server's own flags go after `--` (the inspector's parser would take them). */
function inspector(root: string, indexDir: string, method: string[]): unknown {
  // cwd: the inspector reads its package.json by a path relative to the working directory (inspector-cli 1.0.3).
  const r = spawnSync(process.execPath, [path.join(INSPECTOR, 'index.js'), process.execPath, CLI, 'mcp', root, ...method, '--', '--index-dir', indexDir], { cwd: INSPECTOR, encoding: 'utf8', timeout: 150_000 });
  assert.strictEqual(r.status, 0, `inspector exited with ${r.status}: ${r.stderr}\n${r.stdout}`);
  return JSON.parse(r.stdout);
}

describe('MCP Inspector CLI against reporecall mcp', function () {
  this.timeout(320_000);
  let work: string;

  before(() => {
    work = tempDir('rr-inspector-');
    fs.cpSync(FIXTURE, path.join(work, 'repo'), { recursive: true });
  });
  after(() => fs.rmSync(work, { recursive: true, force: true }));

  it('tools/list shows the four tools with their schemas', () => {
    const out = inspector(path.join(work, 'repo'), path.join(work, 'index'), ['--method', 'tools/list']) as { tools: Array<{ name: string; inputSchema: { required?: string[] } }> };
    assert.deepStrictEqual(out.tools.map((t) => t.name), ['search_code', 'find_definition', 'find_related', 'completion_context']);
    assert.deepStrictEqual(out.tools[0].inputSchema.required, ['query']);
  });

  it('tools/call search_code answers from the index it builds', () => {
    const out = inspector(path.join(work, 'repo'), path.join(work, 'index'), ['--method', 'tools/call', '--tool-name', 'search_code', '--tool-arg', 'query=apply the discount code', '--tool-arg', 'limit=2']) as { content: Array<{ text: string }>; structuredContent: { results: Array<{ path: string; symbol: string }> } };
    assert.deepStrictEqual(out.structuredContent.results.map((h) => [h.path, h.symbol]), [['lib/pricing.ts', 'applyDiscount'], ['src/cart.ts', 'cartTotal']]);
    assert.match(out.content[0].text, /^1\. lib\/pricing\.ts:8-12 function applyDiscount \(matched by /);
  });
});
