// Planted secrets never reach a model server, loopback included unless the user exempts it
// (reporecall.redaction.loopback: false). The deny-list works on paths,
// so a key pasted into an ordinary source file is indexed and retrieved like any other code; this
// test plants one of each format in ordinary files (and in the open file's own text), indexes them
// with the real engine, and runs the real pipeline (completion + HyDE guess) for every backend
// against a local server. The backend is addressed as http://models.example.test:PORT: a host that
// is not loopback by name, so the request is treated as leaving the machine, while the injected
// host name resolution (the `lookup` seam of http.ts) sends the bytes to 127.0.0.1 with no DNS.
// The same requests to 127.0.0.1 are redacted too. Control: with loopback exempted they carry the
// planted text, so retrieval does bring it. Issue 28's eleven formats are planted as well.
import * as assert from 'node:assert';
import * as fs from 'node:fs';
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
import { PLANTED } from './plantedSecrets';
import { tempDir } from './tempDir';

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
  for (const p of PLANTED) w(p.file, p.text);
  w('src/chat/notify.ts', `export function slackClient() {\n  return new WebClient('${SECRETS.slack}');\n}\nexport function gitlabClient() {\n  return new Gitlab({ token: '${SECRETS.gitlab}' });\n}\nexport function mapsClient() {\n  return new Maps({ key: '${SECRETS.google}' });\n}\n`);
}

const PREFIX = `import { githubClient } from './github/client';\nconst localOverride = '${SECRETS.inPrefix}';\n// awsCredentials githubClient stripeClient deployKey database_url openaiClient slackClient gitlabClient mapsClient AWS_SECRET_ACCESS_KEY GITHUB_TOKEN DB_PASSWORD\n// smsClient mail_client BlobStore HEROKU_API_KEY publish_package registry_login mailchimp_client datadogClient shopifyAdmin ordersApi legacyHeaders\nexport function wireClients() {\n  const github = githubClient();\n  const stripe = `;
const SUFFIX = `\n  return { github, stripe };\n}\nconst fallbackKey = '${SECRETS.inSuffix}';\n`;
const STATE: EditorState = { file: 'src/app.ts', language: 'typescript', line: 5, prefix: PREFIX, suffix: SUFFIX };

describe('secret redaction on the way to a non-loopback model server', function () {
  this.timeout(60_000);
  let root: string;
  let engine: Engine;

  before(async () => {
    root = tempDir('reporecall-redact-');
    plant(path.join(root, 'ws'));
    engine = await Engine.open({ root: path.join(root, 'ws'), indexDir: path.join(root, 'index'), dense: false });
    await engine.indexAll();
  });

  after(async () => {
    await engine?.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  type Make = (base: string, lookup?: ReturnType<typeof loopbackLookup>, redactLoopback?: boolean) => CompletionBackend;
  const BACKENDS: Array<[string, Make]> = [
    ['OpenAI-compatible (raw FIM)', (base, lookup, redactLoopback) => new OpenAiCompletionsBackend({ baseUrl: `${base}/v1`, model: 'Qwen/Qwen2.5-Coder-7B', fim: 'auto', lookup, redactLoopback })],
    ['OpenAI-compatible (suffix)', (base, lookup, redactLoopback) => new OpenAiCompletionsBackend({ baseUrl: `${base}/v1`, model: 'm', fim: 'none', lookup, redactLoopback })],
    ['llama.cpp /infill', (base, lookup, redactLoopback) => new LlamaCppInfillBackend({ baseUrl: base, lookup, redactLoopback })],
    ['Ollama', (base, lookup, redactLoopback) => new OllamaGenerateBackend({ baseUrl: base, model: 'qwen2.5-coder:1.5b-base', lookup, redactLoopback })],
  ];
  const ALL_SECRETS: Array<[string, string]> = [...Object.entries(SECRETS), ...PLANTED.map((p): [string, string] => [p.name, p.secret])];
  const leaked = (sent: string): string[] => ALL_SECRETS.filter(([, s]) => sent.includes(s)).map(([label]) => label);

  async function run(backend: CompletionBackend): Promise<void> {
    const result = await modelCompletion({
      trusted: true, state: STATE, backend, repoName: 'shop',
      retrieve: (st, budgetTokens, signal, hypothetical) => engine.retrieve(st, { k: 40, budgetTokens, signal, hypothetical }),
      budget: { contextTokens: 12000, prefixTokens: 1000 }, maxTokens: 16, timeoutMs: 10_000, signal: new AbortController().signal,
      hyde: { source: new HypothesisSource(), docKey: 'doc', budgetMs: 10_000, maxTokens: 16, weight: 1 },
    });
    assert.strictEqual(result?.text, 'stripeClient();');
  }

  for (const [name, make] of BACKENDS) {
    it(`${name}: no planted secret in any request body, remote or loopback; loopback exempted carries them`, async () => {
      let remote: ModelServer | undefined;
      let local: ModelServer | undefined;
      let exempt: ModelServer | undefined;
      try {
        remote = await modelServer('stripeClient();', { flavor: 'llamacpp' });
        const asked: string[] = [];
        await run(make(`http://models.example.test:${remote.port}`, loopbackLookup(asked)));
        assert.ok(asked.includes('models.example.test'), 'the request went through the injected resolution');
        assert.strictEqual(remote.requests.length, 2, 'a guess and a completion');
        for (const r of remote.requests) {
          assert.strictEqual(r.host, `models.example.test:${remote.port}`);
          assert.deepStrictEqual(leaked(r.raw + JSON.stringify(r.body)), [], `reached ${r.url}`);
        }
        const completion = remote.requests[1].raw;
        // Not vacuous: the retrieved code is there, the secrets in it replaced.
        for (const marker of ['<redacted:github-pat>', '<redacted:stripe-access-token>', 'githubClient', 'stripeClient']) assert.ok(completion.includes(marker), `${marker} missing from ${completion.slice(0, 3000)}`);

        local = await modelServer('stripeClient();', { flavor: 'llamacpp' });
        await run(make(local.base));
        assert.strictEqual(local.requests.length, 2, 'a guess and a completion');
        assert.deepStrictEqual(leaked(local.requests.map((r) => r.raw).join('\n')), [], 'redacted on loopback by default');

        exempt = await modelServer('stripeClient();', { flavor: 'llamacpp' });
        await run(make(exempt.base, undefined, false));
        const sent = exempt.requests.map((r) => r.raw).join('\n');
        for (const label of ['github', 'stripe', 'inPrefix', 'inSuffix'] as const) assert.ok(sent.includes(SECRETS[label]), `control: ${label} is retrieved and sent to an exempted loopback`);
      } finally {
        await remote?.close();
        await local?.close();
        await exempt?.close();
      }
    });
  }

  it('every planted format is retrieved into the context and redacted from the remote and loopback requests', async () => {
    const remote = await modelServer('stripeClient();');
    const local = await modelServer('stripeClient();');
    const exempt = await modelServer('stripeClient();');
    try {
      await run(new OpenAiCompletionsBackend({ baseUrl: `${exempt.base}/v1`, model: 'm', redactLoopback: false }));
      const exemptSent = exempt.requests.map((r) => r.raw).join('\n');
      await run(new OpenAiCompletionsBackend({ baseUrl: `${local.base}/v1`, model: 'm' }));
      await run(new OpenAiCompletionsBackend({ baseUrl: `http://models.example.test:${remote.port}/v1`, model: 'm', lookup: loopbackLookup() }));
      // Retrieval brings every one of them into the context (the settings.ts.bak key included) …
      assert.deepStrictEqual(leaked(exemptSent), ALL_SECRETS.map(([label]) => label));
      // … and none reaches the server off loopback, nor the one on loopback.
      assert.deepStrictEqual(leaked(remote.requests.map((r) => r.raw).join('\n')), [], 'remote');
      assert.deepStrictEqual(leaked(local.requests.map((r) => r.raw).join('\n')), [], 'loopback');
    } finally {
      await remote.close();
      await local.close();
      await exempt.close();
    }
  });
});
