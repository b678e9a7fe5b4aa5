// Names as code (issue 29) in JavaScript's CommonJS, as TypeScript's JavaScript service reads it
// (protocol R's truth on ../shared/bench-langs): `exports.x = ...`, `module.exports = X` and
// `module.exports = { ... }` are what `require` and `import` of the file reach; destructured and
// member requires import by name; `this.x` in constructor functions and prototype objects is their
// member; a `for` binding outside any function is the module's. Before, all of these stayed
// candidates or pointed at the `require` line (engine/src/resolve/commonjs.ts).
import * as assert from 'assert';
import { symbolSuite } from './workspace.helpers';

const FILES: Record<string, string> = {
  'lib/utils.cjs': [
    '"use strict";',
    'function castArray(value) {',
    '  return [value];',
    '}',
    'exports.castArray = castArray;',
    'exports.breakCircularDeps = (obj) => obj;',
    'var canonicalType = (exports.canonicalType = function canonicalType(v) {',
    '  return typeof v;',
    '});',
    '',
  ].join('\n'),
  'lib/stats.js': 'function createStatsCollector(runner) {\n  return runner;\n}\nmodule.exports = createStatsCollector;\n',
  'lib/helpers.cjs': '/**\n * Test helpers.\n */\n"use strict";\nfunction copyFixture(a) {\n  return a;\n}\nmodule.exports = {\n  copyFixture,\n  runMocha() {\n    return 1;\n  },\n};\n',
  'lib/runner.cjs': [
    'function Runner(suite) {',
    '  this.suite = suite;',
    '}',
    'Runner.constants = { EVENT_RUN_END: "end" };',
    'Runner.prototype.fail = function (test, err) {',
    '  return err;',
    '};',
    'Runner.prototype.run = function () {',
    '  var self = this;',
    '  this.fail(null, self.suite);',
    '  return function () {',
    '    self.fail(null, null);',
    '  };',
    '};',
    'module.exports = Runner;',
    '',
  ].join('\n'),
  'lib/compiler.js': [
    'function Compiler() {}',
    'Compiler.prototype = {',
    '  opcode: function (name) {',
    '    return name;',
    '  },',
    '  compile: function (program) {',
    '    return this.opcode(program);',
    '  },',
    '};',
    'module.exports = Compiler;',
    '',
  ].join('\n'),
  'lib/commands.js': 'export * as helpers from "./helpers.cjs";\n',
  // Decoys: the same spellings elsewhere, which name-only lookup would pick.
  'tools/decoys.js': 'export function castArray() {}\nexport function breakCircularDeps() {}\nexport function copyFixture() {}\nexport function fail() {}\nexport function opcode() {}\nexport function canonicalType() {}\nexport function createStatsCollector() {}\n',
  'test/use.spec.cjs': [
    'const utils = require("../lib/utils.cjs");',
    'const { breakCircularDeps, canonicalType: typeOf } = require("../lib/utils.cjs");',
    'const { copyFixture } = require("../lib/helpers.cjs");',
    'const createStatsCollector = require("../lib/stats.js");',
    'const Runner = require("../lib/runner.cjs");',
    'const sinon = require("sinon");',
    'const { mkdtempSync } = require("node:fs");',
    'utils.castArray(1);',
    'breakCircularDeps({});',
    'typeOf(2);',
    'copyFixture("a");',
    'createStatsCollector(new Runner());',
    'Runner.constants.EVENT_RUN_END;',
    'sinon.stub();',
    'mkdtempSync("x");',
    'for (const entry of [1, 2]) {',
    '  const total = entry + 1;',
    '  console.log(total);',
    '}',
    'function local() {',
    '  for (const inner of [1]) console.log(inner);',
    '}',
    '',
  ].join('\n'),
  'test/esm.spec.js': 'import { castArray } from "../lib/utils.cjs";\nimport { helpers } from "../lib/commands.js";\ncastArray(1);\nhelpers.copyFixture(2);\n',
};

describe('Engine.symbolAt resolves JavaScript CommonJS names', function () {
  this.timeout(60_000);
  const { at, defines } = symbolSuite(FILES, 'rr-commonjs');

  it('exports.x = f follows f; exports.x = function and var x = (exports.x = ...) are the export', async () => {
    await defines('test/use.spec.cjs', 'castArray(1)', 'lib/utils.cjs', 2);
    await defines('test/use.spec.cjs', 'breakCircularDeps({})', 'lib/utils.cjs', 6);
    await defines('test/use.spec.cjs', 'typeOf(2)', 'lib/utils.cjs', 7);
    await defines('test/esm.spec.js', 'castArray(1)', 'lib/utils.cjs', 2);
  });

  it('module.exports = X and = { ... } are what require returns; a namespace re-export reaches the module', async () => {
    await defines('test/use.spec.cjs', 'createStatsCollector(new', 'lib/stats.js', 1);
    await defines('test/use.spec.cjs', 'copyFixture("a")', 'lib/helpers.cjs', 5);
    await defines('test/esm.spec.js', 'copyFixture(2)', 'lib/helpers.cjs', 5);
    await defines('test/esm.spec.js', 'helpers.', 'lib/helpers.cjs', 4);
  });

  it('constructor functions: static members, prototype members, this and var self = this', async () => {
    await defines('test/use.spec.cjs', 'constants.', 'lib/runner.cjs', 4);
    await defines('lib/runner.cjs', 'fail(null, self', 'lib/runner.cjs', 5);
    await defines('lib/runner.cjs', 'fail(null, null', 'lib/runner.cjs', 5);
    await defines('lib/runner.cjs', 'suite);', 'lib/runner.cjs', 2);
    await defines('lib/compiler.js', 'opcode(program', 'lib/compiler.js', 3);
  });

  it('a require of a package the repository lacks is defined by its own declaration; a for binding at top level is the module\'s, not one in a function', async () => {
    await defines('test/use.spec.cjs', 'sinon.stub', 'test/use.spec.cjs', 6);
    await defines('test/use.spec.cjs', 'mkdtempSync("x")', 'test/use.spec.cjs', 7);
    await defines('test/use.spec.cjs', 'entry + 1', 'test/use.spec.cjs', 16);
    assert.strictEqual(await at('test/use.spec.cjs', 'inner)'), null);
  });
});
