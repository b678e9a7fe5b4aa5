// Secrets never reach the index on disk: a repository with the planted formats of issue 28 (and a
// private key) is indexed by the real engine, and every file of the index folder is searched for the
// secrets' bytes and for their distinctive lexical terms (the index stores sub-tokens). The chunk
// keeps its line range (the placeholder replaces within lines), the placeholder tokenizes into
// words, and the index folder is the user's only, an existing one included.
import * as assert from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Engine } from '../../engine/src/engine';
import { documentItems } from '../../engine/src/indexer/documents';
import { lexicalTerms } from '../../engine/src/lexical/tokenize';
import { GITLEAKS_RULES, placeholder } from '../../engine/src/redact';
import { EXTRA_RULES } from '../../engine/src/redact/extraRules';
import type { ChunkedFile } from '../../engine/src/types';
import { PLANTED } from './plantedSecrets';
import { tempDir } from './tempDir';

const j = (...parts: string[]): string => parts.join('');
const KEY_BODY = Array.from({ length: 5 }, (_, i) => j('MIIEpAIBAAKCAQEAPl4nted', String(i).repeat(40))).join('\n');
const KEY_FILE = { file: 'src/deploy/keys.ts', text: `export function deployKey(): string {\n  return \`-----BEGIN RSA PRIVATE KEY-----\n${KEY_BODY}\n-----END RSA PRIVATE KEY-----\`;\n}\n` };

/** The words of every placeholder (`<redacted:dockerhub-token>` puts `docker…` in the index, rightly). */
const PLACEHOLDER_WORDS = ['redacted', ...GITLEAKS_RULES.map((r) => r.id), ...EXTRA_RULES.map((r) => r.id)].join(' ');

function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(path.join(dir, e.name)) : [path.join(dir, e.name)]));
}

describe('secrets in the index', function () {
  this.timeout(60_000);
  let root: string;

  beforeEach(() => {
    root = tempDir('reporecall-index-redact-');
    for (const p of [...PLANTED, KEY_FILE]) {
      fs.mkdirSync(path.dirname(path.join(root, 'ws', p.file)), { recursive: true });
      fs.writeFileSync(path.join(root, 'ws', p.file), p.text);
    }
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  async function build(): Promise<string> {
    const indexDir = path.join(root, 'index');
    const engine = await Engine.open({ root: path.join(root, 'ws'), indexDir, dense: false });
    try {
      await engine.indexAll();
    } finally {
      await engine.close();
    }
    return indexDir;
  }

  it('no index file holds a planted secret or a term only the secret has', async () => {
    const indexDir = await build();
    const bytes = filesUnder(indexDir).map((f) => fs.readFileSync(f).toString('latin1')).join('\n');
    assert.ok(bytes.includes('smsclient') || bytes.includes('sms'), 'the index holds the planted files\' code');
    for (const p of [...PLANTED, { name: 'private key', secret: KEY_BODY, ...KEY_FILE }]) {
      for (const part of p.secret.split('\n')) assert.ok(!bytes.includes(part), `${p.name}: its bytes are in the index`);
      const others = new Set(lexicalTerms(p.text.split(p.secret).join(' ')));
      const own = lexicalTerms(p.secret).filter((t) => t.length >= 6 && !others.has(t) && !PLACEHOLDER_WORDS.includes(t));
      for (const t of own) assert.ok(!bytes.includes(t), `${p.name}: the term ${t} is in the index`);
    }
  });

  it('replaces within lines: the chunk keeps its line range and its other lines', () => {
    const lines = KEY_FILE.text.split('\n');
    const chunked = { language: 'typescript', chunks: [{ kind: 'function', startLine: 0, endLine: 9, name: 'deployKey', calls: [] }], definitions: [], imports: [] } as unknown as ChunkedFile;
    const defs = { lookup: () => [] } as never;
    const [item] = [...documentItems(KEY_FILE.file, lines, chunked, defs, () => 0)];
    const code = item.code.split('\n');
    assert.strictEqual(code.length, 10);
    assert.deepStrictEqual([code[0], code[8], code[9]], [lines[0], lines[8], lines[9]]);
    assert.ok(code[1].includes(placeholder('private-key')) || code[1].includes('<redacted:'), code[1]);
    assert.ok(!item.text.includes('MIIEpAIBAAKCAQEA') && !item.code.includes('MIIEpAIBAAKCAQEA'));
  });

  it('the placeholder is indexed as words', () => {
    assert.deepStrictEqual(lexicalTerms(`key = '${placeholder('sendgrid-api-token')}'`), ['key', 'redacted', 'sendgrid', 'api', 'token']);
  });

  it('creates the index folder for the user only and narrows an existing one', async function () {
    if (process.platform === 'win32') this.skip();
    const indexDir = path.join(root, 'index');
    fs.mkdirSync(indexDir, { mode: 0o755 });
    fs.chmodSync(indexDir, 0o755);
    fs.writeFileSync(path.join(indexDir, 'stale.bin'), 'x', { mode: 0o644 });
    fs.chmodSync(path.join(indexDir, 'stale.bin'), 0o644);
    await build();
    const mode = (p: string): number => fs.statSync(p).mode & 0o777;
    assert.strictEqual(mode(indexDir).toString(8), '700');
    for (const f of filesUnder(indexDir)) assert.strictEqual(mode(f) & 0o077, 0, `${path.relative(indexDir, f)} is ${mode(f).toString(8)}`);
    for (const d of fs.readdirSync(indexDir, { withFileTypes: true }).filter((e) => e.isDirectory())) assert.strictEqual(mode(path.join(indexDir, d.name)).toString(8), '700', d.name);
  });
});
