// Names as code (issue 29): bare ECMAScript imports that name repository files — tsconfig.json
// `paths` with `baseUrl` (a JSONC file: comments, trailing commas) and a monorepo's workspace
// packages imported by their package.json `name`. A same-named decoy elsewhere is what the name
// lookup picked; before, such imports counted as external (no "defines").
import * as assert from 'assert';
import type { Engine } from '../../engine/src/engine';
import { entryPaths, parseJsonc, sourcesOf } from '../../engine/src/resolve/projects';
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

// A workspace package's entry named by its package.json fields, not at `src/index`: `exports`
// (conditions, subpath patterns) and `main` pointing at a build output the repository lacks.
const ENTRIES: Record<string, string> = {
  'packages/ui/package.json': '{ "name": "@acme/ui", "exports": { ".": { "types": "./src/ui.ts", "default": "./dist/ui.js" }, "./widgets/*": "./src/components/*.ts" } }\n',
  'packages/ui/src/ui.ts': 'export function renderButton(label: string): string {\n  return `<button>${label}</button>`;\n}\n',
  'packages/ui/src/components/slider.ts': 'export function slideTo(value: number): number {\n  return value;\n}\n',
  'packages/tools/package.json': '{ "name": "@acme/tools", "main": "./dist/cjs/tools.js" }\n',
  'packages/tools/src/tools.ts': 'export function measureText(text: string): number {\n  return text.length;\n}\n',
  'apps/site/main.ts': "import { renderButton } from '@acme/ui';\nimport { slideTo } from '@acme/ui/widgets/slider';\nimport { measureText } from '@acme/tools';\n\nexport const page = renderButton('go') + slideTo(3) + measureText('x');\n",
  // Decoys: the same names elsewhere.
  'legacy/ui.ts': 'export function renderButton(): void {}\nexport function slideTo(): void {}\nexport function measureText(): void {}\n',
};

describe('Engine.symbolAt follows a workspace package entry named by exports and main', function () {
  this.timeout(60_000);
  let workspace: IndexedWorkspace;
  before(async () => {
    workspace = await indexedWorkspace(ENTRIES, 'rr-entries');
  });
  after(() => workspace.dispose());

  const defined = async (needle: string): Promise<string> => {
    const s = await workspace.engine.symbolAt('apps/site/main.ts', ...positionOf(ENTRIES['apps/site/main.ts'], needle));
    assert.ok(s, needle);
    assert.strictEqual(s.resolution, 'defines', JSON.stringify(s));
    return s.definitions[0].file;
  };

  it("resolves `exports`' `.` conditions and a `./widgets/*` subpath pattern", async () => {
    assert.strictEqual(await defined("renderButton('go')"), 'packages/ui/src/ui.ts');
    assert.strictEqual(await defined('slideTo(3)'), 'packages/ui/src/components/slider.ts');
  });

  it('resolves `main` naming a build output to the same path under src/', async () => {
    assert.strictEqual(await defined("measureText('x')"), 'packages/tools/src/tools.ts');
  });

  it('reads entry paths in the order Node and TypeScript do', () => {
    assert.deepStrictEqual(entryPaths({ exports: { '.': { import: './esm/a.js', types: './a.d.ts' } }, main: 'b.js' }, '.'), ['./a.d.ts', './esm/a.js', 'b.js']);
    assert.deepStrictEqual(entryPaths({ exports: { './x/*': './src/y/*.ts' } }, './x/z'), ['./src/y/z.ts']);
    assert.deepStrictEqual(sourcesOf('./dist/esm/index.d.ts'), ['dist/esm/index', 'src/index']);
    assert.deepStrictEqual(sourcesOf('./src/main.ts'), ['src/main.ts']);
  });
});
