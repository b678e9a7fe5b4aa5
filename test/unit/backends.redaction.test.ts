// Planted secrets never reach a model server that is not on loopback. The deny-list works on paths,
// so a key pasted into an ordinary source file is indexed and retrieved like any other code; this
// test plants one of each format in ordinary files (and in the open file's own text), indexes them
// with the real engine, and runs the real pipeline (completion + HyDE guess) for every backend
// against a local server. The backend is addressed as http://models.example.test:PORT: a host that
// is not loopback by name, so the request is treated as leaving the machine, while the injected
// host name resolution (the `lookup` seam of http.ts) sends the bytes to 127.0.0.1 with no DNS.
// Control: the same requests to 127.0.0.1 carry the planted text, so retrieval does bring it.
import * as assert from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Engine } from '../../engine/src/engine';
import type { EditorState } from '../../engine/src/types';
import { HypothesisSource } from '../../extension/src/backends/hypothetical';
import { LlamaCppInfillBackend } from '../../extension/src/backends/llamacpp';
import { OllamaGenerateBackend } from '../../extension/src/backends/ollama';
import { OpenAiCompletionsBackend } from '../../extension/src/backends/openai';
import { modelCompletion } from '../../extension/src/backends/pipeline';
import type { CompletionBackend } from '../../extension/src/backends/types';
import { loopbackLookup, modelServer, type ModelServer } from './modelServer.helpers';

const j = (...parts: string[]): string => parts.join(''); // no whole credential literal in this file

/** One planted secret per format, in ordinary (not deny-listed) source files. */
const SECRETS = {
  awsSecret: j('wJalrXUtnFEMI/K7MDENG/', 'bPxRfiCYPLANTEDKEY'),
  awsKeyId: j('AKIA', 'PLANTED0EXAMPLE7'),
  github: j('ghp_', 'Pl4ntedGithubToken0123456789abcdefghij'),
  stripe: j('sk_live_', '51Pl4ntedStripeKey0123456789'),
  privateKey: 'MIIEpAIBAAKCAQEAPl4ntedPrivateKeyBody0123456789',
  dbPassword: 'Zq81x-Pl4nted!pw',
  openai: j('sk-proj-', 'Pl4ntedOpenAIkey0123456789abcdefXYZ'),
  slack: j('xoxb-', '1234567890-0987654321-Pl4ntedSlackTok'),
  google: j('AIza', 'SyA1pl4nted-KEY_0123456789abcdefghi'),
  gitlab: j('glpat-', 'xPl4nted9Tok3nABCDEF'),
  inPrefix: j('ghp_', 'Pl4ntedInTheOpenFile0123456789abcdefgh'),
  inSuffix: j('sk_live_', '51Pl4ntedInTheSuffix0123456789'),
};

function plant(root: string): void {
  const w = (rel: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  };
  w('src/settings.ts.bak', `export const settings = {\n  region: 'eu-west-1',\n};\n// AWS_ACCESS_KEY_ID=${SECRETS.awsKeyId}\n// AWS_SECRET_ACCESS_KEY=${SECRETS.awsSecret}\nexport function awsCredentials() {\n  return { AWS_SECRET_ACCESS_KEY: '${SECRETS.awsSecret}', accessKeyId: '${SECRETS.awsKeyId}' };\n}\n`);
  w('src/github/client.ts', `const GITHUB_TOKEN = '${SECRETS.github}';\nexport function githubClient() {\n  return new Octokit({ auth: GITHUB_TOKEN });\n}\n`);
  w('src/payments/stripe.ts', `export function stripeClient() {\n  return new Stripe('${SECRETS.stripe}', { apiVersion: '2024-06-20' });\n}\n`);
  w('src/deploy/keys.ts', `export function deployKey(): string {\n  return \`-----BEGIN RSA PRIVATE KEY-----\n${SECRETS.privateKey}\n-----END RSA PRIVATE KEY-----\`;\n}\n`);
  w('src/db/config.py', `DB_PASSWORD = "${SECRETS.dbPassword}"\n\ndef database_url():\n    return "postgres://app:" + DB_PASSWORD + "@db:5432/app"\n`);
  w('src/ai/openai.ts', `export function openaiClient() {\n  return new OpenAI({ apiKey: "${SECRETS.openai}" });\n}\n`);
  w('src/chat/notify.ts', `export function slackClient() {\n  return new WebClient('${SECRETS.slack}');\n}\nexport function gitlabClient() {\n  return new Gitlab({ token: '${SECRETS.gitlab}' });\n}\nexport function mapsClient() {\n  return new Maps({ key: '${SECRETS.google}' });\n}\n`);
}

const PREFIX = `import { githubClient } from './github/client';\nconst localOverride = '${SECRETS.inPrefix}';\n// awsCredentials githubClient stripeClient deployKey database_url openaiClient slackClient gitlabClient mapsClient AWS_SECRET_ACCESS_KEY GITHUB_TOKEN DB_PASSWORD\nexport function wireClients() {\n  const github = githubClient();\n  const stripe = `;
const SUFFIX = `\n  return { github, stripe };\n}\nconst fallbackKey = '${SECRETS.inSuffix}';\n`;
const STATE: EditorState = { file: 'src/app.ts', language: 'typescript', line: 5, prefix: PREFIX, suffix: SUFFIX };

describe('secret redaction on the way to a non-loopback model server', function () {
  this.timeout(60_000);
  let root: string;
  let engine: Engine;

  before(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'reporecall-redact-'));
    plant(path.join(root, 'ws'));
    engine = await Engine.open({ root: path.join(root, 'ws'), indexDir: path.join(root, 'index'), dense: false });
    await engine.indexAll();
  });

  after(async () => {
    await engine?.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  const BACKENDS: Array<[string, (base: string, lookup?: ReturnType<typeof loopbackLookup>) => CompletionBackend]> = [
    ['OpenAI-compatible (raw FIM)', (base, lookup) => new OpenAiCompletionsBackend({ baseUrl: `${base}/v1`, model: 'Qwen/Qwen2.5-Coder-7B', fim: 'auto', lookup })],
    ['OpenAI-compatible (suffix)', (base, lookup) => new OpenAiCompletionsBackend({ baseUrl: `${base}/v1`, model: 'm', fim: 'none', lookup })],
    ['llama.cpp /infill', (base, lookup) => new LlamaCppInfillBackend({ baseUrl: base, lookup })],
    ['Ollama', (base, lookup) => new OllamaGenerateBackend({ baseUrl: base, model: 'qwen2.5-coder:1.5b-base', lookup })],
  ];

  async function run(backend: CompletionBackend): Promise<void> {
    const result = await modelCompletion({
      trusted: true, state: STATE, backend, repoName: 'shop',
      retrieve: (st, budgetTokens, signal, hypothetical) => engine.retrieve(st, { k: 20, budgetTokens, signal, hypothetical }),
      budget: { contextTokens: 4000, prefixTokens: 1000 }, maxTokens: 16, timeoutMs: 10_000, signal: new AbortController().signal,
      hyde: { source: new HypothesisSource(), docKey: 'doc', budgetMs: 10_000, maxTokens: 16, weight: 1 },
    });
    assert.strictEqual(result?.text, 'stripeClient();');
  }

  for (const [name, make] of BACKENDS) {
    it(`${name}: no planted secret in any request body; the same requests to 127.0.0.1 carry them`, async () => {
      let remote: ModelServer | undefined;
      let local: ModelServer | undefined;
      try {
        remote = await modelServer('stripeClient();', { flavor: 'llamacpp' });
        const asked: string[] = [];
        await run(make(`http://models.example.test:${remote.port}`, loopbackLookup(asked)));
        assert.ok(asked.includes('models.example.test'), 'the request went through the injected resolution');
        assert.strictEqual(remote.requests.length, 2, 'a guess and a completion');
        for (const r of remote.requests) {
          assert.strictEqual(r.host, `models.example.test:${remote.port}`);
          for (const [label, secret] of Object.entries(SECRETS)) assert.ok(!r.raw.includes(secret) && !JSON.stringify(r.body).includes(secret), `${label} reached ${r.url}`);
        }
        const completion = remote.requests[1].raw;
        // Not vacuous: the retrieved code is there, the secrets in it replaced.
        for (const marker of ['<redacted:github-token>', '<redacted:stripe-key>', 'githubClient', 'stripeClient']) assert.ok(completion.includes(marker), `${marker} missing from ${completion.slice(0, 3000)}`);

        local = await modelServer('stripeClient();', { flavor: 'llamacpp' });
        await run(make(local.base));
        const sent = local.requests.map((r) => r.raw).join('\n');
        for (const label of ['github', 'stripe', 'inPrefix', 'inSuffix'] as const) assert.ok(sent.includes(SECRETS[label]), `control: ${label} is retrieved and sent to loopback`);
      } finally {
        await remote?.close();
        await local?.close();
      }
    });
  }

  it('every planted format is retrieved into the context and redacted from the remote request', async () => {
    const remote = await modelServer('stripeClient();');
    const local = await modelServer('stripeClient();');
    try {
      await run(new OpenAiCompletionsBackend({ baseUrl: `${local.base}/v1`, model: 'm' }));
      const localSent = local.requests.map((r) => r.raw).join('\n');
      await run(new OpenAiCompletionsBackend({ baseUrl: `http://models.example.test:${remote.port}/v1`, model: 'm', lookup: loopbackLookup() }));
      const remoteSent = remote.requests.map((r) => r.raw).join('\n');
      const present = Object.entries(SECRETS).filter(([, s]) => localSent.includes(s)).map(([k]) => k);
      // Retrieval brings every one of them into the context (the settings.ts.bak key included) …
      assert.deepStrictEqual(present, Object.keys(SECRETS));
      // … and none reaches the server off loopback.
      for (const [label, secret] of Object.entries(SECRETS)) assert.ok(!remoteSent.includes(secret), `${label} reached the remote server`);
    } finally {
      await remote.close();
      await local.close();
    }
  });
});
