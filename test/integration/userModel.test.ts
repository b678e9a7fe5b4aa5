// The setting reporecall.model.directory in a real VS Code: a model the user points at but that
// cannot be loaded reopens the folder's engine on the shipped model, says why, and keeps working;
// clearing the setting goes back without the warning.
import * as assert from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { RepoRecallApi } from '../../extension/src/extension';
import { activatedApi, eventually, EXTENSION_ID, fileUri } from './helpers';

describe('a user-configured embedding model', () => {
  let api: RepoRecallApi;
  const setting = () => vscode.workspace.getConfiguration('reporecall');

  before(async () => {
    api = await activatedApi();
  });

  after(async () => {
    await setting().update('model.directory', undefined, vscode.ConfigurationTarget.Global);
  });

  it('one that cannot be loaded: the shipped model is used, the reason is reported, retrieval goes on', async () => {
    const [before] = api.report();
    const shipped = before.stats?.modelDir;
    assert.ok(shipped, `the folder should start on the shipped model: ${JSON.stringify(before.stats)}`);
    const extensionPath = vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath;
    const bad = fs.mkdtempSync(path.join(os.tmpdir(), 'rr-user-model-'));
    fs.copyFileSync(path.join(extensionPath, 'models', 'reporecall-code', 'tokenizer.json'), path.join(bad, 'tokenizer.json'));
    fs.writeFileSync(path.join(bad, 'model.onnx'), 'not an onnx file');

    await setting().update('model.directory', bad, vscode.ConfigurationTarget.Global);
    const warned = await eventually('the reopened engine to report the unusable model', async () => {
      const [r] = api.report();
      return r.state === 'ready' && r.stats?.modelWarning ? r : undefined;
    });
    assert.strictEqual(warned.stats?.modelDir, shipped);
    assert.ok(warned.stats?.modelWarning?.includes(path.join(bad, 'model.onnx')), warned.stats?.modelWarning);
    assert.notStrictEqual(warned.enginePid, before.enginePid, 'the setting reopened the engine');
    const hits = await api.retrieve(fileUri('src/geometry/hull.ts'), 'convexHullMonotoneChain', 3);
    assert.ok(hits.some((h) => h.file === 'src/geometry/hull.ts' && h.signals.dense !== undefined), JSON.stringify(hits.map((h) => [h.file, h.signals])));

    await setting().update('model.directory', undefined, vscode.ConfigurationTarget.Global);
    const cleared = await eventually('the engine back on the shipped model without a warning', async () => {
      const [r] = api.report();
      return r.state === 'ready' && r.stats && !r.stats.modelWarning && r.enginePid !== warned.enginePid ? r : undefined;
    });
    assert.strictEqual(cleared.stats?.modelDir, shipped);
  });
});
