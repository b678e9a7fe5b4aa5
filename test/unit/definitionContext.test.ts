// The completion context's definitions of the names in play (issue 29 part 4,
// engine/src/context/definitionContext.ts): names used near the cursor, resolved as code through
// the file's imports (a workspace package by its name included), give their definitions a share of
// the budget, before the retrieved code. A same-named class elsewhere (what a lookup by spelling
// offers) stays out, and a definition the editor shows is not repeated.
import * as assert from 'assert';
import { definitionText, outlineOf, packDefinitions, type ResolvedUse } from '../../engine/src/context/definitionContext';
import type { ResolvedDef } from '../../engine/src/resolve/types';
import { indexedWorkspace, type IndexedWorkspace } from './workspace.helpers';

const SHAPES = `import { distance, type Point } from './point';

/** A closed shape of straight sides. */
export class Polygon {
  private readonly points: Point[];

  constructor(points: Point[]) {
    this.points = points;
  }

  /** The enclosed area (shoelace formula). */
  area(): number {
    let sum = 0;
    for (let i = 0; i < this.points.length; i++) {
      const a = this.points[i];
      const b = this.points[(i + 1) % this.points.length];
      sum += a.x * b.y - b.x * a.y;
    }
    return Math.abs(sum) / 2;
  }

  perimeterLength(): number {
    return this.points.reduce((n, p, i) => n + distance(p, this.points[(i + 1) % this.points.length]), 0);
  }
}
`;

const FILES: Record<string, string> = {
  'src/geometry/shapes.ts': SHAPES,
  'src/geometry/point.ts': 'export interface Point {\n  x: number;\n  y: number;\n}\n\nexport function distance(a: Point, b: Point): number {\n  return Math.hypot(a.x - b.x, a.y - b.y);\n}\n',
  'packages/units/package.json': '{ "name": "@acme/units", "main": "./dist/units.js" }\n',
  'packages/units/src/units.ts': 'export function toSquareMetres(value: number, unit: "cm" | "mm"): number {\n  return unit === "cm" ? value / 1e4 : value / 1e6;\n}\n',
  // A same-named class elsewhere: the name lookup's candidate, not what app.ts imports.
  'legacy/shapes.ts': 'export class Polygon {\n  legacyOutline(): string {\n    return "";\n  }\n}\n',
  'src/app.ts': "import { Polygon } from './geometry/shapes';\nimport { toSquareMetres } from '@acme/units';\n\nfunction scale(x: number): number {\n  return x * 2;\n}\n\nexport function report(points: { x: number; y: number }[]) {\n  const shape = new Polygon(points);\n  const area = toSquareMetres(scale(shape.area()), 'cm');\n",
};
const STATE = { file: 'src/app.ts', prefix: FILES['src/app.ts'], line: 10 };

describe('completion context: the resolved definitions of the names in play', function () {
  this.timeout(60_000);
  let workspace: IndexedWorkspace;
  before(async () => {
    workspace = await indexedWorkspace(FILES, 'rr-defctx');
  });
  after(() => workspace.dispose());

  it('puts the imported class (outlined) and the workspace package function first, not the same-named decoy', async () => {
    const chunks = await workspace.engine.retrieve(STATE, { budgetTokens: 512, definitionTokens: 160 });
    const defs = chunks.filter((c) => c.signals.definitions);
    assert.deepStrictEqual(chunks.slice(0, defs.length), defs, 'definitions come before the retrieved code');
    assert.deepStrictEqual(defs.map((c) => c.file).sort(), ['packages/units/src/units.ts', 'src/geometry/shapes.ts']);
    const text = defs.map((c) => c.text).join('\n');
    assert.match(text, /perimeterLength\(\): number \{/);
    assert.match(text, /export function toSquareMetres\(value: number, unit: "cm" \| "mm"\): number \{/);
    assert.doesNotMatch(text, /legacyOutline/);
    // The function on screen (lines 3-5 of app.ts) is not repeated.
    assert.doesNotMatch(text, /function scale/);
    assert.ok(defs.reduce((n, c) => n + c.text.length + 1, 0) <= 160 * 4, 'within the share');
    assert.ok(chunks.reduce((n, c) => n + c.text.length, 0) <= 512 * 4 + defs.length, 'the share comes out of the budget');
  });

  it('gives nothing without a share, and nothing for a free-text query', async () => {
    assert.ok(!(await workspace.engine.retrieve(STATE, { budgetTokens: 512, definitionTokens: 0 })).some((c) => c.signals.definitions));
    assert.ok(!(await workspace.engine.retrieve('new Polygon(points)', { definitionTokens: 160 })).some((c) => c.signals.definitions));
  });
});

describe('packDefinitions', () => {
  const lines = SHAPES.split('\n');
  const polygon: ResolvedDef = { file: 'src/geometry/shapes.ts', name: 'Polygon', role: 'class', startLine: 3, endLine: 24, declLine: 3, line: 3, column: 13 };
  const small: ResolvedDef = { file: 'src/geometry/point.ts', name: 'distance', role: 'function', startLine: 5, endLine: 7, declLine: 5, line: 5, column: 16 };
  const linesOf = (f: string) => (f === polygon.file ? lines : FILES['src/geometry/point.ts'].split('\n'));

  it('outlines a long class as its declaration and members (comments dropped), and shows a small definition whole', () => {
    assert.strictEqual(outlineOf(lines, polygon), [
      'export class Polygon {', '  private readonly points: Point[];', '  constructor(points: Point[]) {', '  area(): number {', '  perimeterLength(): number {',
    ].join('\n'));
    assert.strictEqual(definitionText(linesOf(small.file), small), 'export function distance(a: Point, b: Point): number {\n  return Math.hypot(a.x - b.x, a.y - b.y);\n}');
  });

  it('keeps the budget, skips what adds no name and what the editor shows, and records the names it adds', () => {
    const seen = new Set(['distance', 'Point', 'a', 'b', 'number', 'export', 'function', 'return', 'Math', 'hypot', 'x', 'y']);
    const uses: ResolvedUse[] = [{ name: 'distance', line: 40, def: small }, { name: 'Polygon', line: 39, def: polygon }, { name: 'Polygon', line: 30, def: polygon }];
    const out = packDefinitions(uses, linesOf, { budgetChars: 1000, file: 'src/main.ts', windowStart: 20, cursorLine: 41, seen });
    assert.deepStrictEqual(out.map((c) => c.file), [polygon.file], 'distance adds no name; Polygon once');
    assert.ok(seen.has('perimeterLength'));
    assert.deepStrictEqual(packDefinitions(uses, linesOf, { budgetChars: 20, file: 'src/main.ts', windowStart: 20, cursorLine: 41, seen: new Set() }), []);
    const onScreen = packDefinitions([{ name: 'Polygon', line: 20, def: polygon }], linesOf, { budgetChars: 1000, file: polygon.file, windowStart: 10, cursorLine: 30, seen: new Set() });
    assert.deepStrictEqual(onScreen, []);
  });
});
