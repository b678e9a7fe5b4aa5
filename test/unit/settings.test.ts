// Settings: package.json declares every `reporecall.*` default and bound once; extension/src/config.ts
// must read every contributed setting, get the declared default when it is unset or invalid, and
// keep a value within the declared bounds (0 where 0 is allowed). config.ts is loaded against a
// stand-in for the vscode module whose configuration answers as VS Code's does: the user's value
// when set, else the contributed default.
import * as assert from 'assert';
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the real module object: its _load is patched below
import Module = require('module');
import { DECLARED } from '../../extension/src/settings';

const user = new Map<string, unknown>();
/** Values from the workspace's own settings (a cloned repository's .vscode/settings.json): they win over the user's. */
const workspace = new Map<string, unknown>();
const read = new Set<string>();
const fakeVscode = {
  workspace: {
    isTrusted: true,
    getConfiguration: (section: string) => ({
      get: (key: string, fallback?: unknown) => {
        const full = `${section}.${key}`;
        read.add(full);
        return workspace.has(full) ? workspace.get(full) : user.has(full) ? user.get(full) : (DECLARED[full]?.default ?? fallback);
      },
      inspect: (key: string) => {
        const full = `${section}.${key}`;
        read.add(full);
        return { key: full, defaultValue: DECLARED[full]?.default, globalValue: user.get(full), workspaceFolderValue: workspace.get(full) };
      },
    }),
  },
};

type Config = typeof import('../../extension/src/config');
type Registry = typeof import('../../extension/src/backends/registry');
/** An extension module loaded while `vscode` resolves to the fake. */
function loadWithFakeVscode<T>(load: () => T): T {
  const loader = Module as unknown as { _load(request: string, parent: unknown, isMain: boolean): unknown };
  const original = loader._load;
  loader._load = function (request, parent, isMain) {
    return request === 'vscode' ? fakeVscode : original.call(this, request, parent, isMain);
  };
  try {
    return load();
  } finally {
    loader._load = original;
  }
}

// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded while `vscode` resolves to the fake
const { config, engineSettings } = loadWithFakeVscode(() => require('../../extension/src/config') as Config);
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the same
const { MODEL_BACKENDS } = loadWithFakeVscode(() => require('../../extension/src/backends/registry') as Registry);
const BACKEND_SETTINGS: string[] = Object.values(MODEL_BACKENDS).flatMap((b) => [...b.settings]);
const folder = { uri: { fsPath: '/work/space', toString: () => 'file:///work/space' }, name: 'space', index: 0 } as never;

/** Each accessor, the setting it reads, and how the value it returns relates to the setting's. */
const READERS: { key: string; read: () => unknown; as?: (v: unknown) => unknown }[] = [
  { key: 'completion.enabled', read: () => config.completionEnabled() },
  { key: 'completion.languages', read: () => config.completionLanguages() },
  { key: 'completion.backend', read: () => config.backend() },
  { key: 'completion.withCopilot', read: () => config.withCopilot() },
  { key: 'completion.debounceMs', read: () => config.debounceMs() },
  { key: 'completion.contextTokens', read: () => config.contextTokens() },
  { key: 'completion.prefixTokens', read: () => config.prefixTokens() },
  { key: 'completion.maxTokens', read: () => config.maxCompletionTokens() },
  { key: 'completion.keepModelOutput', read: () => config.keepModelOutput() },
  { key: 'completion.timeoutMs', read: () => config.backendTimeoutMs() },
  { key: 'hyde.enabled', read: () => config.hydeEnabled() },
  { key: 'hyde.budgetMs', read: () => config.hydeBudgetMs() },
  { key: 'hyde.maxTokens', read: () => config.hydeMaxTokens() },
  { key: 'hyde.weight', read: () => config.hydeWeight() },
  // Each model backend's own settings, as backends/registry.ts reads them.
  ...BACKEND_SETTINGS.map((key) => ({ key, read: () => config.backendSetting(key) })),
  { key: 'redaction.loopback', read: () => config.redactLoopback() },
  { key: 'hover.mode', read: () => config.hoverMode() },
  // Deprecated: read only while hover.mode is unset; false means off.
  { key: 'hover.enabled', read: () => config.hoverMode(), as: (v) => (v === false ? 'off' : 'identifiers') },
  { key: 'hover.maxSnippets', read: () => config.hoverMaxSnippets() },
  { key: 'definitionProvider.budgetMs', read: () => config.definitionBudgetMs() },
  { key: 'related.maxResults', read: () => config.relatedMaxResults() },
  { key: 'privacy.secretPatterns', read: () => config.secretPatterns(folder) },
  { key: 'index.exclude', read: () => config.excludePatterns(folder) },
  { key: 'index.useFilesExclude', read: () => config.useFilesExclude(folder) },
  { key: 'index.maxFileSizeKb', read: () => config.maxFileBytes(folder), as: (v) => (v as number) * 1024 },
  { key: 'index.dense', read: () => config.denseEnabled(folder) },
  { key: 'model.directory', read: () => config.modelDirectory(folder), as: (v) => (v === '' ? undefined : v) },
  { key: 'index.liveUpdateDelayMs', read: () => config.liveUpdateDelayMs() },
  { key: 'teamIndex.url', read: () => config.teamIndexUrl(folder) },
  { key: 'teamIndex.repository', read: () => config.teamIndexRepository(folder) },
  { key: 'teamIndex.passwordFromEnvironment', read: () => config.teamPasswordFromEnvironment() },
];

describe('settings: package.json is the one place of defaults and bounds', () => {
  beforeEach(() => {
    user.clear();
    read.clear();
  });

  it('every contributed setting has a reader, and each reader reads its setting', () => {
    const contributed = Object.keys(DECLARED).map((k) => k.replace(/^reporecall\./, '')).sort();
    assert.deepStrictEqual([...new Set(READERS.map((r) => r.key))].sort(), contributed);
    for (const r of READERS) {
      read.clear();
      r.read();
      assert.ok(read.has(`reporecall.${r.key}`), `${r.key} is not read by its accessor`);
    }
  });

  it('unset, each setting reads as its declared default', () => {
    for (const r of READERS) assert.deepStrictEqual(r.read(), (r.as ?? ((v) => v))(DECLARED[`reporecall.${r.key}`].default), r.key);
  });

  it('a value of the wrong type reads as the declared default', () => {
    for (const r of READERS) {
      if (r.key === 'hover.enabled') continue; // only read while hover.mode is unset: covered by its own case
      user.clear();
      user.set(`reporecall.${r.key}`, Symbol('wrong type'));
      assert.deepStrictEqual(r.read(), (r.as ?? ((v) => v))(DECLARED[`reporecall.${r.key}`].default), r.key);
    }
  });

  it('numbers are kept within the declared bounds: the minimum itself (0 included) holds, below it reads as the minimum', () => {
    const numeric = READERS.filter((r) => DECLARED[`reporecall.${r.key}`].type === 'number');
    assert.ok(numeric.length >= 10);
    for (const r of numeric) {
      const d = DECLARED[`reporecall.${r.key}`];
      assert.strictEqual(typeof d.minimum, 'number', `${r.key} declares no minimum`);
      const as = r.as ?? ((v) => v);
      user.set(`reporecall.${r.key}`, d.minimum);
      assert.strictEqual(r.read(), as(d.minimum), `${r.key} at its minimum`);
      user.set(`reporecall.${r.key}`, d.minimum! - 1);
      assert.strictEqual(r.read(), as(d.minimum), `${r.key} below its minimum`);
      user.set(`reporecall.${r.key}`, d.minimum! + 7);
      assert.strictEqual(r.read(), as(d.minimum! + 7), `${r.key} above its minimum`);
    }
    // The three that silently turned 0 into 75 / 1024 / 750.
    for (const [key, read] of [['completion.debounceMs', config.debounceMs], ['completion.contextTokens', config.contextTokens], ['index.liveUpdateDelayMs', config.liveUpdateDelayMs]] as const) {
      user.set(`reporecall.${key}`, 0);
      assert.strictEqual(read(), 0, key);
    }
  });

  it('a string outside a declared enum reads as the default', () => {
    for (const r of READERS.filter((x) => DECLARED[`reporecall.${x.key}`].enum)) {
      user.set(`reporecall.${r.key}`, 'no-such-value');
      assert.strictEqual(r.read(), DECLARED[`reporecall.${r.key}`].default, r.key);
    }
  });

  it('the backend setting offers exactly the registry\'s backends, and a backend\'s server URL is restricted in untrusted workspaces', () => {
    assert.deepStrictEqual([...(DECLARED['reporecall.completion.backend'].enum ?? [])].sort(), ['builtin', ...Object.keys(MODEL_BACKENDS)].sort());
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the extension's manifest
    const restricted = (require('../../../package.json') as { capabilities: { untrustedWorkspaces: { restrictedConfigurations: string[] } } }).capabilities.untrustedWorkspaces.restrictedConfigurations;
    for (const [kind, b] of Object.entries(MODEL_BACKENDS) as [string, { urlSetting?: string }][]) {
      if (b.urlSetting) assert.ok(restricted.includes(`reporecall.${b.urlSetting}`), `${kind}: reporecall.${b.urlSetting} is not in restrictedConfigurations`);
    }
  });

  it('the engine is reopened on exactly the settings it is opened with', () => {
    const before = JSON.stringify(engineSettings(folder));
    for (const key of ['privacy.secretPatterns', 'index.exclude']) {
      user.clear();
      user.set(`reporecall.${key}`, ['x/**']);
      assert.notStrictEqual(JSON.stringify(engineSettings(folder)), before, key);
    }
    // files.exclude globs reach the engine unless index.useFilesExclude is off.
    user.clear();
    user.set('files.exclude', { '**/gen': true, '**/maybe': { when: '$(basename).ts' } });
    const withGlobs = JSON.stringify(engineSettings(folder));
    assert.notStrictEqual(withGlobs, before, 'files.exclude');
    user.set('reporecall.index.useFilesExclude', false);
    assert.strictEqual(JSON.stringify(engineSettings(folder)), before, 'index.useFilesExclude');
    for (const [key, value] of [['index.maxFileSizeKb', 2], ['index.dense', false], ['model.directory', 'm']] as const) {
      user.clear();
      user.set(`reporecall.${key}`, value);
      assert.notStrictEqual(JSON.stringify(engineSettings(folder)), before, key);
    }
    // The team index: its URL reaches the engine without a password, with the folder's name as the repository by default.
    user.clear();
    user.set('reporecall.teamIndex.url', 'postgres://dev:pw@db.example.com:5432/code');
    assert.deepStrictEqual(engineSettings(folder).team, { url: 'postgres://dev@db.example.com:5432/code', urlOrigin: 'user', passwordFromEnvironment: false, repo: 'space' });
    for (const [key, value] of [['teamIndex.repository', 'web']] as const) {
      const withUrl = JSON.stringify(engineSettings(folder));
      user.set(`reporecall.${key}`, value);
      assert.notStrictEqual(JSON.stringify(engineSettings(folder)), withUrl, key);
    }
    user.clear();
    user.set('reporecall.completion.debounceMs', 5);
    assert.strictEqual(JSON.stringify(engineSettings(folder)), before, 'a completion setting does not reopen the engine');
  });

  describe('the team index URL a repository sets', () => {
    afterEach(() => {
      user.clear();
      workspace.clear();
      fakeVscode.workspace.isTrusted = true;
    });

    it('is marked as the workspace\'s, so the engine answers it with no password from the environment, even where the user opted in', () => {
      user.set('reporecall.teamIndex.passwordFromEnvironment', true);
      user.set('reporecall.teamIndex.url', 'postgres://me@db.example.com/code');
      assert.deepStrictEqual(engineSettings(folder).team && { ...engineSettings(folder).team }, { url: 'postgres://me@db.example.com/code', urlOrigin: 'user', passwordFromEnvironment: true, repo: 'space' });
      workspace.set('reporecall.teamIndex.url', 'postgres://victim@evil.example/db');
      assert.deepStrictEqual([engineSettings(folder).team?.url, engineSettings(folder).team?.urlOrigin, engineSettings(folder).team?.passwordFromEnvironment], ['postgres://victim@evil.example/db', 'workspace', false]);
      // The user's own URL repeated in the workspace is still the user's.
      workspace.set('reporecall.teamIndex.url', 'postgres://me@db.example.com/code');
      assert.strictEqual(engineSettings(folder).team?.urlOrigin, 'user');
      // The opt-in itself is read from the user's settings only.
      user.delete('reporecall.teamIndex.passwordFromEnvironment');
      workspace.set('reporecall.teamIndex.passwordFromEnvironment', true);
      assert.strictEqual(config.teamPasswordFromEnvironment(), false);
    });

    it('is not read at all in an untrusted workspace, nor the user\'s: no team connection there', () => {
      user.set('reporecall.teamIndex.url', 'postgres://me@db.example.com/code');
      workspace.set('reporecall.teamIndex.url', 'postgres://victim@evil.example/db');
      fakeVscode.workspace.isTrusted = false;
      assert.strictEqual(engineSettings(folder).team, undefined);
      assert.strictEqual(config.teamIndexUrlWithoutPassword(folder), undefined);
    });

    it('the team settings are restricted in an untrusted workspace (package.json)', () => {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const pkg = require('../../../package.json') as { capabilities: { untrustedWorkspaces: { restrictedConfigurations: string[] } } };
      const restricted = pkg.capabilities.untrustedWorkspaces.restrictedConfigurations;
      for (const key of ['reporecall.teamIndex.url', 'reporecall.teamIndex.repository']) assert.ok(restricted.includes(key), key);
      assert.ok(['machine', 'application'].includes((DECLARED['reporecall.teamIndex.passwordFromEnvironment'] as { scope?: string }).scope ?? ''));
    });
  });
});
