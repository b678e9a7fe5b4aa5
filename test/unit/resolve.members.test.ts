// Names as code (issue 29): TypeScript member accesses resolved through what the receiver is — an
// interface or object type a parameter is annotated with, a function's declared return type, a
// field's declared type, an object literal, an enum, a namespace, a class exported under another
// name. Each fixture plants a same-named definition elsewhere that the name lookup would pick.
import * as assert from 'assert';
import type { Engine } from '../../engine/src/engine';
import { indexedWorkspace, positionOf, type IndexedWorkspace } from './workspace.helpers';

const FILES: Record<string, string> = {
  // Decoys: same-named definitions that are not the ones referred to.
  'src/decoys.ts': 'export const context = 1;\nexport function start(): void {}\nexport function send(): void {}\nexport const HS256 = 1;\nexport function maxAge(): number {\n  return 1;\n}\nexport function param(): string {\n  return "";\n}\n',
  'src/actor.ts': [
    'class Actor {',
    '  start(): this {',
    '    return this;',
    '  }',
    '}',
    'export { Actor as ActorBase };',
    'export function createActor(logic: string): ActorBase {',
    '  return new ActorBase();',
    '}',
    '',
  ].join('\n'),
  'src/types.ts': [
    'export interface Options {',
    '  maxAge?: number;',
    '  request: Request;',
    '}',
    'export type Request = { param(key: string): string } & Base;',
    'export interface Base {',
    '  send(): void;',
    '}',
    'export enum Algorithm {',
    '  HS256 = "HS256",',
    '}',
    'export const algorithms = {',
    '  HS256: { name: "HMAC" },',
    '  verify(): boolean {',
    '    return true;',
    '  },',
    '};',
    'export namespace JSX {',
    '  interface Attributes {',
    '    id?: string;',
    '  }',
    '  export interface Element extends Attributes {',
    '    tag: string;',
    '  }',
    '}',
    'export interface Store {',
    '  getSnapshot: () => Snapshot<number>;',
    '}',
    'export type Snapshot<T> = { context: T };',
    '',
  ].join('\n'),
  'src/use.ts': [
    "import { createActor } from './actor.js';",
    "import { Algorithm, algorithms, type Options } from './types';",
    "import * as types from './types';",
    '',
    'export class Server {',
    '  private readonly options: Options;',
    '  constructor(options: Options) {',
    '    this.options = options;',
    '  }',
    '  handle(opts: types.Options): string {',
    '    const actor = createActor("x");',
    '    actor.start();',
    '    opts.request.send();',
    '    if (opts.maxAge) return String(Algorithm.HS256) + algorithms.HS256.name;',
    '    return this.options.request.param("id");',
    '  }',
    '  peek(store: types.Store): number {',
    '    return store.getSnapshot().context;',
    '  }',
    '}',
    '',
  ].join('\n'),
};

describe('Engine.symbolAt resolves TypeScript members through what the receiver is', function () {
  this.timeout(60_000);
  let workspace: IndexedWorkspace;
  let engine: Engine;
  before(async () => {
    workspace = await indexedWorkspace(FILES, 'rr-members');
    engine = workspace.engine;
  });
  after(() => workspace.dispose());

  const defined = async (rel: string, needle: string, offset = 0): Promise<[string, number]> => {
    const s = await engine.symbolAt(rel, ...positionOf(FILES[rel], needle, offset));
    assert.ok(s, `no symbol at ${needle}`);
    assert.strictEqual(s.resolution, 'defines', `${needle}: ${JSON.stringify(s)}`);
    assert.strictEqual(s.definitions.length, 1);
    return [s.definitions[0].file, s.definitions[0].declLine];
  };

  it('follows a function\'s declared return type, through a class exported under another name', async () => {
    assert.deepStrictEqual(await defined('src/use.ts', 'start();'), ['src/actor.ts', 1]);
  });

  it('finds members of an interface, an object type and its intersection\'s parts through annotations', async () => {
    assert.deepStrictEqual(await defined('src/use.ts', 'maxAge)'), ['src/types.ts', 1]);
    assert.deepStrictEqual(await defined('src/use.ts', 'send();'), ['src/types.ts', 6]);
    assert.deepStrictEqual(await defined('src/use.ts', 'param("id")'), ['src/types.ts', 4]);
    assert.deepStrictEqual(await defined('src/use.ts', 'request.send', 0), ['src/types.ts', 2]);
    // A property of function type, called: its return type's member.
    assert.deepStrictEqual(await defined('src/use.ts', 'context;'), ['src/types.ts', 28]);
  });

  it('finds enum members and object literal members', async () => {
    assert.deepStrictEqual(await defined('src/use.ts', 'HS256)'), ['src/types.ts', 9]);
    assert.deepStrictEqual(await defined('src/use.ts', 'HS256.name'), ['src/types.ts', 12]);
  });

  it('resolves a type named inside a namespace to the namespace\'s declaration', async () => {
    assert.deepStrictEqual(await defined('src/types.ts', 'extends Attributes', 'extends '.length), ['src/types.ts', 18]);
  });
});
