// The agent tools as plain functions over a real index (engine/src/agentTools): package.json's
// language-model tools say exactly what the MCP server lists, answers are bounded, a cancelled
// call ends with the abort error, and search_code's filters hold inside retrieval.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { AGENT_TOOLS, runAgentTool } from '../../engine/src/agentTools';
import { searchCode } from '../../engine/src/agentTools/searchCode';
import { MAX_ANSWER_CHARS, MAX_EXCERPT_LINES } from '../../engine/src/agentTools/limits';
import { indexedWorkspace, type IndexedWorkspace } from './workspace.helpers';

const PACKAGE = JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../../package.json'), 'utf8')) as { contributes: { languageModelTools: Array<{ name: string; modelDescription: string; inputSchema: object }>; mcpServerDefinitionProviders: Array<{ id: string }> } };

describe('agent tools over an index', function () {
  this.timeout(60_000);
  let ws: IndexedWorkspace;

  before(async () => {
    const long = Array.from({ length: 300 }, (_, i) => `  total += ledger_entry_${i}(rows)`).join('\n');
    const files: Record<string, string> = {
      'src/ledger.py': `def reconcile_ledger(rows):\n    total = 0\n${long.replace(/^ {2}/gm, '    ')}\n    return total\n`,
      'tests/test_ledger.py': 'def test_reconcile_ledger():\n    assert reconcile_ledger([]) == 0\n',
    };
    // Many same-worded functions elsewhere: only filtering inside retrieval still fills `limit` from tests/.
    for (let i = 0; i < 80; i++) files[`src/ledger_${i}.py`] = `def ledger_report_rows_${i}(rows):\n    """The ledger report of the rows."""\n    return reconcile_ledger(rows)\n`;
    for (let i = 0; i < 6; i++) files[`tests/test_report_${i}.py`] = `def test_report_${i}():\n    assert ledger_${i}([]) == 0\n`;
    ws = await indexedWorkspace(files, 'rr-agent-tools');
  });
  after(() => ws.dispose());

  it('package.json declares each tool with the description and schema the MCP server lists', () => {
    const declared = PACKAGE.contributes.languageModelTools;
    assert.deepStrictEqual(declared.map((t) => t.name), AGENT_TOOLS.map((t) => `reporecall_${t.name}`));
    for (const [i, t] of AGENT_TOOLS.entries()) {
      assert.strictEqual(declared[i].modelDescription, t.description, t.name);
      assert.deepStrictEqual(declared[i].inputSchema, t.inputSchema, t.name);
    }
    assert.deepStrictEqual(PACKAGE.contributes.mcpServerDefinitionProviders.map((p) => p.id), ['reporecall.mcp']);
  });

  it('bounds an excerpt, saying how much was left out', async () => {
    const answer = await runAgentTool(ws.engine, 'find_definition', { name: 'reconcile_ledger' });
    const def = (answer.data as { definitions: Array<{ excerpt: string }> }).definitions[0];
    const lines = def.excerpt.split('\n');
    assert.strictEqual(lines.length, MAX_EXCERPT_LINES + 1);
    assert.match(lines[lines.length - 1], /^… \(\d+ more lines not shown\)$/);
    assert.ok(JSON.stringify(answer.data).length <= MAX_ANSWER_CHARS);
  });

  it('fills the limit from the files a glob names though most matches are elsewhere', async () => {
    const r = await searchCode(ws.engine, { query: 'ledger report rows', path: 'tests/', limit: 5 });
    assert.strictEqual(r.results.length, 5, JSON.stringify(r.results.map((h) => h.path)));
    assert.ok(r.results.every((h) => h.path.startsWith('tests/')));
  });

  it('ends a cancelled call with the abort error', async () => {
    const controller = new AbortController();
    controller.abort();
    await assert.rejects(runAgentTool(ws.engine, 'search_code', { query: 'ledger' }, controller.signal), { name: 'AbortError' });
  });
});
