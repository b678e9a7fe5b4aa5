// One registration shape for every feature (issue 32): each extension/src/features/*.ts that
// registers something exports exactly one `register…(ctx: Ctx): vscode.Disposable`, pushes nothing
// onto the Ctx itself, and is listed in extension.ts's FEATURES; read from the sources, so a feature
// added in another shape fails here.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';

const ROOT = path.resolve(__dirname, '../../..');
const FEATURES = path.join(ROOT, 'extension/src/features');
const REGISTER = /^export (?:async )?function (register\w*)\(([^)]*)\)(?::\s*([^{]+?))?\s*\{/gm;

describe('feature registration shape', () => {
  const files = fs.readdirSync(FEATURES).filter((f) => f.endsWith('.ts')).sort();
  const registrations = files.flatMap((f) => [...fs.readFileSync(path.join(FEATURES, f), 'utf8').matchAll(REGISTER)].map((m) => ({ file: f, name: m[1], params: m[2].trim(), returns: (m[3] ?? '').trim() })));

  it('finds the features (the pattern still matches the sources)', () => {
    assert.ok(registrations.length >= 12, JSON.stringify(registrations.map((r) => r.name)));
  });

  it('each register function takes the Ctx alone and returns one vscode.Disposable', () => {
    const odd = registrations.filter((r) => !/^\w+: Ctx$/.test(r.params) || r.returns !== 'vscode.Disposable');
    assert.deepStrictEqual(odd, []);
  });

  it('no feature file exports two', () => {
    const byFile = new Map<string, string[]>();
    for (const r of registrations) byFile.set(r.file, [...(byFile.get(r.file) ?? []), r.name]);
    assert.deepStrictEqual([...byFile].filter(([, names]) => names.length > 1), []);
  });

  it('no feature pushes onto the Ctx (what it registers is in the Disposable it returns)', () => {
    const pushing = files.filter((f) => /\b(?:ctx|c)\.push\(/.test(fs.readFileSync(path.join(FEATURES, f), 'utf8')));
    assert.deepStrictEqual(pushing, []);
  });

  it('activate() registers every one of them through FEATURES', () => {
    const entry = fs.readFileSync(path.join(ROOT, 'extension/src/extension.ts'), 'utf8');
    const list = entry.slice(entry.indexOf('const FEATURES'), entry.indexOf('];', entry.indexOf('const FEATURES')));
    assert.deepStrictEqual(registrations.filter((r) => !new RegExp(`\\b${r.name},`).test(list)).map((r) => r.name), []);
  });
});
