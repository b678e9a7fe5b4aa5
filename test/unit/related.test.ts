// Issue 29 (parts 1-2): Find Related Code and the hover over a real engine on a workspace written
// here: code above configuration and data, the definition's siblings, copies shown as the one this
// file runs, relations read from syntax (a declaration defines, a string only mentions, a subclass's
// method overrides), copies by normalised body, and a language server's location mapped to what
// the engine knows (a local: nothing).
import * as assert from 'assert';
import type { Engine } from '../../engine/src/engine';
import { chooseDefinition } from '../../extension/src/features/definitionChoice';
import { buildHoverModel } from '../../extension/src/features/hoverModel';
import { relatedRows } from '../../extension/src/features/relatedRows';
import { copyPreference, groupCopies, isDataFile } from '../../extension/src/features/copies';
import { indexedWorkspace, positionOf, type IndexedWorkspace } from './workspace.helpers';

const link = (name: string, options: string) => [
  "import type { AnyRouter, Link } from './types';",
  '',
  `/** Sends each operation through ${name}. */`,
  `export function ${name}<TRouter extends AnyRouter>(opts: ${options}<TRouter>): Link<TRouter> {`,
  '  const url = opts.url;',
  '  return (op) => op.next({ url, op });',
  '}',
  '',
].join('\n');

const retrieveSteps = [
  'def retrieve_steps(scheduler, count=None, device=None):',
  '    """Sets the schedule and returns it."""',
  '    scheduler.set_steps(count, device=device)',
  '    return scheduler.steps, count',
];

const FILES: Record<string, string> = {
  'links/types.ts': 'export interface AnyRouter { name: string }\nexport type Link<T> = (op: { next(x: unknown): unknown }) => unknown;\n',
  'links/httpBatchLink.ts': link('httpBatchLink', 'BatchLinkOptions'),
  'links/httpStreamLink.ts': link('httpStreamLink', 'StreamLinkOptions'),
  'links/httpLink.ts': link('httpLink', 'HttpLinkOptions'),
  'links/headers.ts': 'export function parseHeaders(raw: string): Record<string, string> {\n  return Object.fromEntries(raw.split("\\n").map((l) => l.split(": ")));\n}\n',
  'app/client.ts': [
    "import { httpBatchLink } from '../links/httpBatchLink';",
    '',
    'export function makeClient(url: string) {',
    '  const local = url.trim();',
    '  return httpBatchLink({ url: local });',
    '}',
    '',
  ].join('\n'),
  'app/other.ts': "import { httpBatchLink } from '../links/httpBatchLink';\nimport { httpLink } from '../links/httpLink';\n\nexport const links = [httpBatchLink({ url: 'a' }), httpLink({ url: 'b' })];\n",
  'config/links.yaml': 'links:\n  - httpBatchLink: batch\n  - httpBatchLink: again\n  - name: httpBatchLink\n',
  'package.json': '{ "name": "links", "keywords": ["httpBatchLink", "httpBatchLink links"] }\n',
  'deploy.json': '{ "rewrites": [{ "source": "/httpBatchLink", "destination": "/httpBatchLink" }] }\n',
  'schedulers/base.py': 'class SchedulerMixin:\n    def add_noise(self, x, noise, t):\n        return x + noise * t\n',
  'schedulers/ddpm.py': [
    'from schedulers.base import SchedulerMixin',
    '',
    '',
    'class DDPMScheduler(SchedulerMixin):',
    '    def add_noise(self, x, noise, t):',
    '        return x + noise * (t + 1)',
    '',
  ].join('\n'),
  'train.py': [
    'from schedulers.base import SchedulerMixin',
    '',
    '',
    'def apply(s: SchedulerMixin, x, noise):',
    '    return s.add_noise(x, noise, 3)',
    '',
    '',
    'def describe_step():',
    '    return "add_noise(x, noise, t) adds the noise"',
    '',
  ].join('\n'),
  'pipes/scheduling.py': `${retrieveSteps.join('\n')}\n`,
  'pipes/pipeline_a.py': ['# Copied from pipes.scheduling.retrieve_steps', ...retrieveSteps, '', '', 'def run_a(scheduler):', '    steps, n = retrieve_steps(scheduler, 10)', '    return steps', ''].join('\n'),
  'examples/community/pipe_x.py': ['# Copied from pipes.scheduling.retrieve_steps', ...retrieveSteps, '', '', 'def run_x(scheduler):', '    return retrieve_steps(scheduler, 5)', ''].join('\n'),
  'src/matcher.rs': 'pub struct ArgMatcher { args: Vec<String> }\n\nimpl ArgMatcher {\n    pub fn check_explicit(&self, id: &str) -> bool {\n        self.args.iter().any(|a| a == id)\n    }\n}\n',
  'src/command.rs': 'pub struct Command { flag: bool }\n\nimpl Command {\n    pub fn check_explicit(&self, arg: &str) -> bool {\n        self.flag && !arg.is_empty()\n    }\n}\n\npub fn run(c: &Command) -> bool {\n    c.check_explicit("x")\n}\n',
};

describe('Find Related Code and hover: relations, siblings, copies (issue 29)', function () {
  this.timeout(60_000);
  let workspace: IndexedWorkspace;
  let engine: Engine;
  before(async () => {
    workspace = await indexedWorkspace(FILES, 'rr-related');
    engine = workspace.engine;
  });
  after(() => workspace.dispose());

  const related = async (rel: string, needle: string, offset: number, siblings = 5) => {
    const found = await engine.symbolRelated(rel, ...positionOf(FILES[rel], needle, offset), { options: { k: 30 }, siblings });
    assert.ok(found, `no symbol at ${needle}`);
    const line = positionOf(FILES[rel], needle)[0];
    const chunks = found.chunks.filter((c) => !(c.file === rel && c.startLine <= line && line <= c.endLine));
    return { found, rows: relatedRows(chunks, found.symbol, rel, 20) };
  };

  it('ranks code above configuration and data files, and lists the definition\'s siblings above look-alikes', async () => {
    const { rows } = await related('app/client.ts', 'httpBatchLink({', 2);
    const files = rows.map((r) => `${r.chunk.file}:${r.reason}`);
    assert.strictEqual(rows[0].chunk.file, 'links/httpBatchLink.ts', files.join('\n'));
    const lastCode = Math.max(...rows.map((r, i) => (isDataFile(r.chunk.file) ? -1 : i)));
    const firstData = rows.findIndex((r) => isDataFile(r.chunk.file));
    assert.ok(firstData < 0 || firstData > lastCode, `configuration above code:\n${files.join('\n')}`);
    for (const sibling of ['links/httpStreamLink.ts', 'links/httpLink.ts']) {
      const at = rows.findIndex((r) => r.chunk.file === sibling && r.reason === 'sibling');
      assert.ok(at > 0, `sibling ${sibling} missing:\n${files.join('\n')}`);
      const lookAlike = rows.findIndex((r) => r.reason === 'similar code' || r.reason === 'mentions it');
      assert.ok(lookAlike < 0 || at < lookAlike, files.join('\n'));
    }
    assert.ok(!rows.some((r) => r.chunk.file === 'links/headers.ts' && r.reason === 'sibling'), `another shape counted as a sibling:\n${files.join('\n')}`);
  });

  it('labels relations from syntax: a declaration defines, a subclass method overrides, a string only mentions', async () => {
    const { found, rows } = await related('train.py', 'add_noise(x, noise, 3)', 2);
    assert.strictEqual(found.symbol.resolution, 'defines');
    assert.strictEqual(found.symbol.definitions[0].file, 'schedulers/base.py');
    const reasonOf = (file: string) => rows.find((r) => r.chunk.file === file || r.copies.some((c) => c.file === file))?.reason;
    assert.strictEqual(reasonOf('schedulers/base.py'), 'definition');
    assert.strictEqual(reasonOf('schedulers/ddpm.py'), 'overrides it');
    const inString = found.chunks.find((c) => c.file === 'train.py' && c.text.includes('describe_step'));
    assert.ok(inString, JSON.stringify(found.chunks.map((c) => [c.file, c.startLine])));
    assert.strictEqual(inString.relation?.kind, 'mentions');
    const model = buildHoverModel(found.symbol, 'train.py', 4, found.chunks, 5);
    assert.ok(!model.usages.some((u) => u.reason === 'calls it' && u.preview.includes('"add_noise')), JSON.stringify(model.usages));
  });

  it('shows, among copies, the one this file\'s call runs, not an example\'s', async () => {
    const { found, rows } = await related('pipes/pipeline_a.py', 'retrieve_steps(scheduler, 10)', 2);
    assert.strictEqual(found.symbol.definitions[0].file, 'pipes/pipeline_a.py');
    const defRow = rows.find((r) => r.reason === 'definition');
    assert.ok(defRow, JSON.stringify(rows.map((r) => [r.chunk.file, r.reason])));
    assert.strictEqual(defRow.chunk.file, 'pipes/pipeline_a.py', JSON.stringify(rows.map((r) => [r.chunk.file, r.reason, r.copies.map((c) => c.file)])));
    assert.strictEqual(found.symbol.copies, 2, 'the original and the example have the same normalised body');
    // Among copies that are not the definition: the nearest by path, else outside examples.
    const items = [{ file: 'examples/community/a.py', startLine: 0, endLine: 3, text: 'x = 1\ny = 2' }, { file: 'lib/b.py', startLine: 0, endLine: 3, text: 'x = 1\ny = 2' }, { file: 'pipes/sub/c.py', startLine: 0, endLine: 3, text: 'x = 1\ny = 2' }];
    assert.strictEqual(groupCopies(items, (i) => i.text, copyPreference('pipes/sub/d.py'))[0].first.file, 'pipes/sub/c.py');
    assert.strictEqual(groupCopies(items.slice(0, 2), (i) => i.text, copyPreference('app/d.py'))[0].first.file, 'lib/b.py');
  });

  it('counts as copies only definitions with the same normalised body, not another type\'s method of the same name', async () => {
    const s = await engine.symbolAt('src/command.rs', ...positionOf(FILES['src/command.rs'], 'check_explicit("x")', 2));
    assert.ok(s && s.definitions.length === 2, JSON.stringify(s));
    const model = buildHoverModel(s, 'src/command.rs', 9, [], 3);
    assert.strictEqual(model.otherDefinitions, 0, `"+ ${model.otherDefinitions} copy" for a different method`);
  });

  it('maps a language server\'s location to the engine\'s definition, and a local to no hover', async () => {
    const s = await engine.symbolAt('app/client.ts', ...positionOf(FILES['app/client.ts'], 'httpBatchLink({', 2));
    assert.ok(s);
    const uri = (rel: string) => `file:///ws/${rel}`;
    const relPathOf = (u: string) => (u.startsWith('file:///ws/') ? u.slice('file:///ws/'.length) : undefined);
    const describe = (f: string, l: number, c: number) => engine.definitionAt(f, l, c, 5);
    const [dl, dc] = positionOf(FILES['links/httpLink.ts'], 'httpLink<', 0);
    const other = await chooseDefinition(s, 'app/client.ts', { kind: 'at', uri: uri('links/httpLink.ts'), line: dl, character: dc }, relPathOf, describe);
    assert.strictEqual(other?.source, 'language server');
    assert.strictEqual(other.symbol.definitions[0].file, 'links/httpLink.ts');
    assert.ok(other.symbol.definitions[0].declaration.startsWith('export function httpLink<'), other.symbol.definitions[0].declaration);
    assert.ok(other.siblings?.some((c) => c.file === 'links/httpBatchLink.ts'), JSON.stringify(other.siblings?.map((c) => c.file)));
    const [ll, lc] = positionOf(FILES['app/client.ts'], 'local =', 0);
    assert.strictEqual(await chooseDefinition(s, 'app/client.ts', { kind: 'at', uri: uri('app/client.ts'), line: ll, character: lc }, relPathOf, describe), null);
    const outside = await chooseDefinition(s, 'app/client.ts', { kind: 'at', uri: 'file:///usr/lib/node_modules/x/index.d.ts', line: 1, character: 0 }, relPathOf, describe);
    assert.deepStrictEqual([outside?.symbol.resolution, outside?.symbol.definitions.length], ['external', 0]);
    // A server still loading its project answers with the import's alias: the definition it leads to, never the import line.
    const [il, ic] = positionOf(FILES['app/client.ts'], 'httpBatchLink }', 0);
    const alias = await chooseDefinition(s, 'app/client.ts', { kind: 'at', uri: uri('app/client.ts'), line: il, character: ic }, relPathOf, describe);
    assert.deepStrictEqual([alias?.symbol.definitions[0].file, alias?.symbol.definitions[0].declaration.startsWith('export function httpBatchLink')], ['links/httpBatchLink.ts', true]);
    const none = await chooseDefinition(s, 'app/client.ts', { kind: 'none' }, relPathOf, describe);
    assert.strictEqual(none?.source, 'resolver');
  });
});
