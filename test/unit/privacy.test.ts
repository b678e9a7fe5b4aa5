// Privacy on the index side: planted secrets (.env, a private key, credentials files, a secrets
// config, and a source file the user put on the secret deny-list) must not reach any byte of the
// index directory, and retrieve() must never return them — also after updateFile on those paths.
import * as assert from 'assert';
import * as fs from 'fs';
import * as net from 'net';
import * as path from 'path';
import { Engine } from '../../engine/src/engine';
import { decodeTables } from '../../engine/src/index/tables';
import { decodeDelta } from '../../engine/src/index/deltaFile';

/** Tables base files (index/manifest.ts names them). */
const TABLES_FILE = /^tables-\d+\.bin$/;
import { EngineClient } from '../../engine/src/rpc/client';
import { networkSocketsOf, socketCountOf } from '../netSockets';
import { OpenAiCompletionsBackend } from '../../extension/src/backends/openai';
import { modelCompletion } from '../../extension/src/backends/pipeline';
import { modelServer } from './modelServer.helpers';
import { tempDir } from './tempDir';

/** Distinctive strings that appear only in the secret files. */
const SECRETS = {
  env: 'sk_live_PLANTED_ENV_7f3a9c1e',
  rsa: 'MIIEpAIBAAKCAQEAplantedRSAkey0123456789abcdef',
  credentials: 'planted-credentials-client-secret-5521',
  secretsYaml: 'planted_db_password_Zq81x',
  userSecretSource: 'PLANTED_INTERNAL_SIGNING_SALT_90d1',
  npmrc: 'npm_PLANTEDtoken4477',
};

function plantWorkspace(root: string): void {
  const w = (rel: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  };
  w('.env', `API_KEY=${SECRETS.env}\nDEBUG=1\n`);
  w('deploy/id_rsa', `-----BEGIN RSA PRIVATE KEY-----\n${SECRETS.rsa}\n-----END RSA PRIVATE KEY-----\n`);
  w('credentials.json', JSON.stringify({ client_id: 'abc', client_secret: SECRETS.credentials }, null, 2));
  w('config/secrets.yaml', `database:\n  password: ${SECRETS.secretsYaml}\n`);
  w('.npmrc', `//registry.npmjs.org/:_authToken=${SECRETS.npmrc}\n`);
  // A source file the user listed in secretPatterns: code, so the chunker would happily index it.
  w('src/internal/signing.ts', `export const SIGNING_SALT = '${SECRETS.userSecretSource}';\nexport function signRequest(body: string): string {\n  return body + SIGNING_SALT;\n}\n`);
  // A link with an innocent name pointing at a secret file.
  fs.symlinkSync('.env', path.join(root, 'config-link.ts'));
  // Ordinary code that refers to the secrets by name (and must be indexed).
  w('src/app.ts', 'import { signRequest } from \'./internal/signing\';\nexport function loadApiKey(): string {\n  return process.env.API_KEY ?? \'\';\n}\nexport function send(body: string): string {\n  return signRequest(body);\n}\n');
  w('src/db.py', 'import os\n\ndef database_password():\n    """Reads the password from config/secrets.yaml at deploy time."""\n    return os.environ["DB_PASSWORD"]\n');
}

/** Every file under `dir`, read whole (vectors included: a secret must not be there in any form we can grep). */
function indexBytes(dir: string): Array<{ file: string; bytes: Buffer }> {
  const out: Array<{ file: string; bytes: Buffer }> = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out.push({ file: path.relative(dir, p), bytes: readable(path.relative(dir, p), fs.readFileSync(p)) });
    }
  };
  walk(dir);
  return out;
}

/**
 * tables.bin is deflated, so its bytes would hide a leak: it is checked as a JSON dump of every
 * string it holds (both pools in full, every chunk record, every definition with its signature).
 */
function readable(file: string, bytes: Buffer): Buffer {
  // Delta segments are deflated too: their tables changes and lexical terms, as JSON.
  if (/^delta-\d+\.bin$/.test(file)) return Buffer.from(JSON.stringify(decodeDelta(bytes, file), (_k, v) => (ArrayBuffer.isView(v) ? Array.from(v as Int32Array) : v)));
  if (!TABLES_FILE.test(file)) return bytes;
  const t = decodeTables(bytes);
  const paths = Array.from({ length: t.paths.size }, (_, i) => t.paths.get(i));
  const names = Array.from({ length: t.names.size }, (_, i) => t.names.get(i));
  const definitions = paths.flatMap((p) => t.defs.ofFile(p)).map((d) => ({ ...d, signature: d.signature }));
  return Buffer.from(JSON.stringify({ paths, names, chunks: [...t.chunks.all()], definitions }));
}

/** Substrings of each secret long enough to mean it leaked (lexical tokenisation splits on case and punctuation). */
function needles(): string[] {
  const out: string[] = [];
  for (const s of Object.values(SECRETS)) {
    out.push(s);
    for (const part of s.split(/[_-]/)) if (part.length >= 6 && !/^(planted|client|secret|internal|signing|password)$/i.test(part)) out.push(part);
  }
  return out;
}

function assertNoSecretBytes(indexDir: string): void {
  const files = indexBytes(indexDir);
  assert.ok(files.some((f) => TABLES_FILE.test(f.file)) && files.some((f) => /^lexical-\d+\.bin$/.test(f.file)), `index written: ${files.map((f) => f.file)}`);
  for (const { file, bytes } of files) {
    const lower = bytes.toString('latin1').toLowerCase();
    for (const n of needles()) assert.ok(!lower.includes(n.toLowerCase()), `index file ${file} contains ${JSON.stringify(n)}`);
    for (const secretPath of ['id_rsa', 'credentials.json', 'secrets.yaml', '.npmrc', 'internal/signing.ts', 'config-link.ts']) {
      assert.ok(!((TABLES_FILE.test(file) || file.startsWith('delta-')) && bytes.includes(`"${secretPath}"`)), `${file} names the secret file ${secretPath}`);
    }
  }
}

describe('privacy: secrets never reach the index', function () {
  this.timeout(120_000);
  let root: string;
  let indexDir: string;
  beforeEach(() => {
    root = tempDir('rr-privacy-');
    indexDir = tempDir('rr-privacy-index-');
    plantWorkspace(root);
  });
  afterEach(() => {
    fs.rmSync(root, { recursive: true, force: true });
    fs.rmSync(indexDir, { recursive: true, force: true });
  });

  for (const dense of [false, true]) {
    it(`indexAll (dense ${dense ? 'on' : 'off'}): no index byte holds a secret, retrieve never returns one, skips say why`, async () => {
      const engine = await Engine.open({ root, indexDir, dense, secretPatterns: ['src/internal/**'] });
      const stats = await engine.indexAll();
      const skipped = new Map(engine.skippedFiles().map((s) => [s.relPath, s.reason]));
      for (const rel of ['.env', 'deploy/id_rsa', 'credentials.json', 'config/secrets.yaml', '.npmrc', 'src/internal/signing.ts', 'config-link.ts']) {
        assert.strictEqual(skipped.get(rel), 'secret', `${rel}: ${skipped.get(rel)}`);
      }
      assert.strictEqual(stats.files, 2, 'only src/app.ts and src/db.py are indexed');
      const queries = [...needles(), 'API_KEY', 'private key', 'client_secret', 'database password', 'signing salt SIGNING_SALT', 'authToken registry'];
      for (const q of queries) {
        const hits = await engine.retrieve(q, { k: 20 });
        for (const h of hits) {
          assert.ok(['src/app.ts', 'src/db.py'].includes(h.file), `query ${q} returned ${h.file}`);
          for (const n of needles()) assert.ok(!h.text.includes(n), `query ${q} returned text with ${n}`);
        }
      }
      // Editor-state queries from inside a secret file (the user has it open) must not surface it either.
      const hits = await engine.retrieve({ file: 'src/internal/signing.ts', prefix: `export const SIGNING_SALT = '${SECRETS.userSecretSource}';\n`, line: 1 }, { k: 20 });
      for (const h of hits) assert.notStrictEqual(h.file, 'src/internal/signing.ts');
      await engine.close();
      assertNoSecretBytes(indexDir);
    });
  }

  it('updateFile on a secret path (saved or unsaved buffer) keeps it out of the index', async () => {
    const engine = await Engine.open({ root, indexDir, dense: false, secretPatterns: ['src/internal/**'] });
    await engine.indexAll();
    await engine.updateFile('.env');
    await engine.updateFile('src/internal/signing.ts', `export const OTHER = '${SECRETS.userSecretSource}';\n`);
    await engine.updateFile('config/secrets.yaml', `password: ${SECRETS.secretsYaml}\n`);
    for (const q of needles()) {
      for (const h of await engine.retrieve(q, { k: 20 })) assert.ok(['src/app.ts', 'src/db.py'].includes(h.file), `${q} -> ${h.file}`);
    }
    await engine.close(); // flushes pending writes
    assertNoSecretBytes(indexDir);
  });

  it('a model backend request grounded in the planted workspace carries no secret (real HTTP server)', async () => {
    const engine = await Engine.open({ root, indexDir, dense: true, secretPatterns: ['src/internal/**'] });
    await engine.indexAll();
    const server = await modelServer('return key;');
    try {
      const backend = new OpenAiCompletionsBackend({ baseUrl: `${server.base}/v1`, model: 'm' });
      // Typing code that names every secret: the retrieval behind the prompt is asked for them.
      const prefix = "import { signRequest } from './internal/signing';\n// API_KEY client_secret SIGNING_SALT DB_PASSWORD authToken private key\nexport function useSecrets() {\n  const key = ";
      for (const file of ['src/app.ts', 'src/new.ts']) {
        const result = await modelCompletion({
          trusted: true, backend, state: { file, language: 'typescript', line: 3, prefix, suffix: '\n}\n' },
          retrieve: (st, budgetTokens, signal) => engine.retrieve(st, { budgetTokens, signal }),
          budget: { contextTokens: 2000, prefixTokens: 1000 }, maxTokens: 16, timeoutMs: 5000, signal: new AbortController().signal,
        });
        assert.strictEqual(result?.text, 'return key;');
      }
      assert.strictEqual(server.requests.length, 2);
      for (const { body } of server.requests) {
        const sent = JSON.stringify(body);
        // Not vacuous: the prompt carries retrieved repository code.
        assert.ok(sent.includes('src/db.py') || sent.includes('loadApiKey'), sent);
        for (const n of needles()) assert.ok(!sent.toLowerCase().includes(n.toLowerCase()), `request carried ${n}`);
      }
    } finally {
      await server.close();
      await engine.close();
    }
  });

  it('the network-socket check sees a TCP socket when a process has one', async function () {
    if (process.platform !== 'linux') this.skip();
    const server = net.createServer().listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    try {
      const port = (server.address() as net.AddressInfo).port;
      const portHex = port.toString(16).toUpperCase().padStart(4, '0');
      assert.ok(networkSocketsOf(process.pid).some((x) => x.startsWith('tcp ') && x.includes(`:${portHex} `)), networkSocketsOf(process.pid).join('; '));
    } finally {
      server.close();
    }
  });

  it('the engine process opens no network socket while indexing, retrieving and completing (with the shipped model)', async function () {
    if (process.platform !== 'linux') this.skip();
    const workerPath = path.resolve(__dirname, '../../engine/src/rpc/worker.js');
    const client = new EngineClient({ workerPath, init: { options: { root, indexDir, secretPatterns: ['src/internal/**'] } } });
    try {
      await client.whenReady();
      const pid = client.enginePid!;
      assert.ok(pid && pid !== process.pid, 'the engine runs in its own process');
      const seen = new Set<string>();
      const sample = () => networkSocketsOf(pid).forEach((x) => seen.add(x));
      const sampler = setInterval(sample, 5);
      await client.indexAll();
      await client.retrieve('connect to the database', { k: 5 });
      await client.complete({ file: 'src/app.ts', prefix: 'export function main() {\n  const db = ', line: 1 });
      await client.updateFile('src/app.ts', 'export const edited = 1;\n');
      clearInterval(sampler);
      sample();
      // The check sees sockets: the IPC channel to this process is one (a Unix socket, not network).
      assert.ok(socketCountOf(pid) >= 1);
      assert.deepStrictEqual([...seen], []);
    } finally {
      await client.close();
    }
  });
});
