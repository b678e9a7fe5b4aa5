// Names as code (issue 29): bare ECMAScript imports that name repository files — tsconfig.json
// `paths` with `baseUrl` (a JSONC file: comments, trailing commas) and a monorepo's workspace
// packages imported by their package.json `name`. A same-named decoy elsewhere is what the name
// lookup picked; before, such imports counted as external (no "defines").
import * as assert from 'assert';
import type { Engine } from '../../engine/src/engine';
import { parseJsonc } from '../../engine/src/resolve/projects';
import { indexedWorkspace, positionOf, type IndexedWorkspace } from './workspace.helpers';

const FILES: Record<string, string> = {
  'tsconfig.json': '{\n  // paths for the app\n  "compilerOptions": {\n    "baseUrl": ".",\n    "paths": { "~/*": ["apps/web/src/*"], },\n  },\n}\n',
  'apps/web/src/lib/format.ts': 'export function formatPrice(cents: number): string {\n  return String(cents / 100);\n}\n',
  'apps/web/src/page.ts': "import { formatPrice } from '~/lib/format.js';\nimport { createStore } from '@acme/core';\nimport { route } from '@acme/core/router';\n\nexport const view = () => formatPrice(createStore().size) + route('/');\n",
  'packages/core/package.json': '{ "name": "@acme/core", "version": "1.0.0" }\n',
  'packages/core/src/index.ts': 'export function createStore(): Map<string, number> {\n  return new Map();\n}\n',
  'packages/core/src/router.ts': 'export function route(path: string): string {\n  return path;\n}\n',
  // Decoys.
  'tools/legacy.ts': 'export function formatPrice(x: number): string {\n  return "$" + x;\n}\nexport function createStore(): void {}\nexport function route(): void {}\n',
};

describe('Engine.symbolAt follows tsconfig paths and workspace packages', function () {
  this.timeout(60_000);
  let workspace: IndexedWorkspace;
  let engine: Engine;
  before(async () => {
    workspace = await indexedWorkspace(FILES, 'rr-projects');
    engine = workspace.engine;
  });
  after(() => workspace.dispose());

  const defined = async (needle: string): Promise<string> => {
    const s = await engine.symbolAt('apps/web/src/page.ts', ...positionOf(FILES['apps/web/src/page.ts'], needle));
    assert.ok(s, needle);
    assert.strictEqual(s.resolution, 'defines', JSON.stringify(s));
    return s.definitions[0].file;
  };

  it('resolves a `paths` alias of a JSONC tsconfig.json to the file it maps to', async () => {
    assert.strictEqual(await defined('formatPrice(create'), 'apps/web/src/lib/format.ts');
  });

  it('resolves a workspace package by its package.json name, and its subpath', async () => {
    assert.strictEqual(await defined('createStore()'), 'packages/core/src/index.ts');
    assert.strictEqual(await defined("route('/')"), 'packages/core/src/router.ts');
  });

  it('reads JSONC: comments and trailing commas, not `//` inside strings', () => {
    assert.deepStrictEqual(parseJsonc('{ "url": "http://x/*y*/", /* c */ "a": [1, 2,], // end\n }'), { url: 'http://x/*y*/', a: [1, 2] });
  });
});
