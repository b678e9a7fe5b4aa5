// Names as code (issue 29): Engine.symbolAt resolves a name by the language's rules, not by its
// spelling. Each fixture plants a same-named definition elsewhere that the name lookup picked.
import * as assert from 'assert';
import type { Engine } from '../../engine/src/engine';
import { indexedWorkspace, positionOf, type IndexedWorkspace } from './workspace.helpers';

const FILES: Record<string, string> = {
  // A handler elsewhere defines `url`; here `url` is a local.
  'adapters/lambda.py': 'def url(event):\n    return event["rawPath"]\n',
  'adapters/fetch.py': [
    'def handle(request):',
    '    url = request.url',
    '    return [part for part in url.split("/")]',
    '',
  ].join('\n'),
  'src/aws/planner.ts': 'export function url(event: { path: string }): string {\n  return event.path;\n}\n',
  'src/fetch/handler.ts': [
    'export function handle(req: { url: string }): string {',
    '  const url = new URL(req.url);',
    '  return url.pathname;',
    '}',
    '',
  ].join('\n'),
  // `self.encode_prompt` is inherited from the base class; a training script has a same-named function.
  'examples/train_text_to_image.py': 'def encode_prompt(text_encoders, tokenizers, prompt):\n    return prompt\n',
  'pipelines/pipeline_utils.py': [
    'class DiffusionPipeline:',
    '    def encode_prompt(self, prompt, device):',
    '        return prompt',
    '',
    '    def unet(self):',
    '        return None',
    '',
  ].join('\n'),
  'pipelines/stable_diffusion.py': [
    'from .pipeline_utils import DiffusionPipeline',
    '',
    '',
    'class StableDiffusionPipeline(DiffusionPipeline):',
    '    def __init__(self, unet):',
    '        self.unet = unet',
    '',
    '    def __call__(self, prompt):',
    '        embeds = self.encode_prompt(prompt, "cpu")',
    '        return self.unet(embeds)',
    '',
  ].join('\n'),
  'scripts/convert_unet.py': 'def unet(hor):\n    return hor\n',
  // `this.handle()` is the base class's method; another module exports a function `handle`.
  'src/links/base.ts': 'export class Link {\n  handle(op: string): string {\n    return op;\n  }\n}\n',
  'src/links/batch.ts': [
    "import { Link } from './base.js';",
    '',
    'export class BatchLink extends Link {',
    '  run(ops: string[]): string[] {',
    '    return ops.map((op) => this.handle(op));',
    '  }',
    '}',
    '',
  ].join('\n'),
  // A receiver whose declaration names its class: a constructor call, an annotation.
  'src/links/use.ts': "import { BatchLink } from './batch';\n\nexport function go(other: BatchLink): string[] {\n  const link = new BatchLink();\n  return link.run([]).concat(other.handle('x'));\n}\n",
  'pipelines/use.py': 'from .stable_diffusion import StableDiffusionPipeline\n\n\ndef go(pipe: StableDiffusionPipeline):\n    made = StableDiffusionPipeline(None)\n    return pipe.encode_prompt("a", "cpu"), made.unet\n',
  // An imported name resolves to the module it is imported from, not to a same-named copy.
  'src/legacy/format.ts': 'export function padLabel(label: string): string {\n  return label;\n}\n',
  'src/ui/format.ts': 'export function padLabel(label: string, width = 8): string {\n  return label.padEnd(width);\n}\n',
  'src/ui/table.ts': "import { padLabel } from './format.js';\n\nexport const row = (s: string) => padLabel(s, 4);\n",
  'pkg/__init__.py': 'from .helpers import make_url\n',
  'pkg/helpers.py': 'def make_url(host):\n    return "http://" + host\n',
  'aaa_tools/make_url.py': 'def make_url(host, port):\n    return f"{host}:{port}"\n',
  'pkg/client.py': 'from pkg import make_url\n\n\ndef connect(host):\n    return make_url(host)\n',
};

describe('Engine.symbolAt resolves names as code', function () {
  this.timeout(60_000);
  let workspace: IndexedWorkspace;
  let engine: Engine;
  before(async () => {
    workspace = await indexedWorkspace(FILES, 'rr-resolve');
    engine = workspace.engine;
  });
  after(() => workspace.dispose());

  const at = (rel: string, needle: string, offset = 0) => engine.symbolAt(rel, ...positionOf(FILES[rel], needle, offset));
  const only = (s: Awaited<ReturnType<typeof at>>) => {
    assert.ok(s, 'no symbol');
    assert.strictEqual(s.resolution, 'defines', JSON.stringify(s));
    assert.strictEqual(s.definitions.length, 1, JSON.stringify(s.definitions));
    return s.definitions[0];
  };

  it('gives nothing for a local that shadows a repository function (Python and TypeScript)', async () => {
    assert.strictEqual(await at('adapters/fetch.py', 'url = request'), null, 'assignment target');
    assert.strictEqual(await at('adapters/fetch.py', 'url.split'), null, 'use in a comprehension');
    assert.strictEqual(await at('adapters/fetch.py', 'part for'), null, 'comprehension variable');
    assert.strictEqual(await at('src/fetch/handler.ts', 'url.pathname'), null, 'const');
    assert.strictEqual(await at('src/fetch/handler.ts', 'req.url', 0), null, 'parameter');
  });

  it('resolves self.method to the enclosing class and its bases, not a same-named function elsewhere', async () => {
    const d = only(await at('pipelines/stable_diffusion.py', 'encode_prompt(prompt', 0));
    assert.strictEqual(d.file, 'pipelines/pipeline_utils.py');
    assert.strictEqual(d.declLine, 1);
    assert.ok(d.declaration.startsWith('def encode_prompt(self'), d.declaration);
    // `self.unet` is the attribute __init__ assigns, which shadows the base's method.
    const unet = only(await at('pipelines/stable_diffusion.py', 'unet(embeds)'));
    assert.strictEqual(unet.file, 'pipelines/stable_diffusion.py');
    assert.strictEqual(unet.declLine, 5);
  });

  it('resolves this.method in TypeScript to the base class the file imports', async () => {
    const d = only(await at('src/links/batch.ts', 'handle(op)'));
    assert.strictEqual(d.file, 'src/links/base.ts');
    assert.strictEqual(d.declLine, 1);
  });

  it('resolves an imported name to the imported module, though another file defines the same name', async () => {
    const ts = only(await at('src/ui/table.ts', 'padLabel(s'));
    assert.strictEqual(ts.file, 'src/ui/format.ts');
    const importName = only(await at('src/ui/table.ts', 'padLabel }'));
    assert.strictEqual(importName.file, 'src/ui/format.ts');
    // Through the package's __init__.py re-export to the defining module.
    const py = only(await at('pkg/client.py', 'make_url(host)'));
    assert.strictEqual(py.file, 'pkg/helpers.py');
    assert.strictEqual(py.declLine, 0);
  });

  it('resolves a member of a variable or parameter whose declaration names its class', async () => {
    assert.strictEqual(only(await at('src/links/use.ts', 'run([])')).file, 'src/links/batch.ts');
    assert.strictEqual(only(await at('src/links/use.ts', "handle('x')")).file, 'src/links/base.ts');
    assert.strictEqual(only(await at('pipelines/use.py', 'encode_prompt("a"')).file, 'pipelines/pipeline_utils.py');
    const unet = only(await at('pipelines/use.py', 'unet'));
    assert.deepStrictEqual([unet.file, unet.declLine], ['pipelines/stable_diffusion.py', 5]);
  });

  it('says a declaration defines itself, and leaves an unresolved member as candidates', async () => {
    const decl = await at('pkg/helpers.py', 'make_url(host)');
    assert.strictEqual(decl?.role, 'definition');
    assert.strictEqual(decl.resolution, 'defines');
    assert.deepStrictEqual(decl.definitions.map((d) => [d.file, d.declLine]), [['pkg/helpers.py', 0]]);
    // `label.padEnd`: the receiver is a parameter whose type the resolver does not follow.
    const member = await at('src/ui/format.ts', 'padEnd');
    assert.ok(member === null || member.resolution !== 'defines', JSON.stringify(member));
  });
});
