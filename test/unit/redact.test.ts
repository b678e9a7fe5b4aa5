// Secret redaction (engine/src/redact, as the extension's backends/redact.ts uses it), table-driven: each planted secret format is
// replaced and ordinary code around it is left as it is; code that merely names a password or a
// token is not touched; the loopback classification that decides whether redaction applies.
import * as assert from 'node:assert';
import { looksLikeSecretValue } from '../../engine/src/redact/extraRules';
import { PLANTED } from './plantedSecrets';
import { isLoopbackHost, isLoopbackUrl, redactDeep, redactSecrets, redactsRequestTo } from '../../extension/src/backends/redact';

// Split so that this file holds no literal that a secret scanner would flag as a real credential.
const j = (...parts: string[]): string => parts.join('');

interface Case {
  name: string;
  text: string;
  /** The secret part that must be gone. */
  secret: string;
  kind: string;
  /** Text that must survive around it. */
  keeps: string;
}

const CASES: Case[] = [
  { name: 'RSA private key block', kind: 'private-key', secret: 'MIIEpAIBAAKCAQEAplantedRSAkeyBODY0123',
    text: 'const key = `-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEAplantedRSAkeyBODY0123\nabcdefABCDEF==\n-----END RSA PRIVATE KEY-----`;\nexport default key;', keeps: 'export default key;' },
  { name: 'OpenSSH private key in a string with \\n escapes', kind: 'private-key', secret: 'b3BlbnNzaC1rZXktdjEAAAAplanted',
    text: 'KEY = "-----BEGIN OPENSSH PRIVATE KEY-----\\nb3BlbnNzaC1rZXktdjEAAAAplanted\\n-----END OPENSSH PRIVATE KEY-----"\nprint(KEY)', keeps: 'print(KEY)' },
  { name: 'private key cut off by the budget (no END line)', kind: 'private-key', secret: 'MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7',
    text: 'def load():\n    pem = """-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7', keeps: 'def load():' },
  { name: 'AWS access key id', kind: 'aws-access-key-id', secret: j('AKIA', 'IOSFODNN7PLANTED'), text: `aws.config.accessKeyId = '${j('AKIA', 'IOSFODNN7PLANTED')}';`, keeps: 'aws.config.accessKeyId = ' },
  { name: 'AWS secret access key (.env style, unquoted)', kind: 'aws-secret-access-key', secret: j('wJalrXUtnFEMI/K7MDENG/', 'bPxRfiCYPLANTEDKEY'),
    text: `AWS_ACCESS_KEY_ID=x\nAWS_SECRET_ACCESS_KEY=${j('wJalrXUtnFEMI/K7MDENG/', 'bPxRfiCYPLANTEDKEY')}\nREGION=eu-west-1`, keeps: 'REGION=eu-west-1' },
  { name: 'GitHub classic token', kind: 'github-token', secret: j('ghp_', 'R7planted0123456789abcdefghijABCDEFGH'), text: `const gh = new Octokit({ auth: "${j('ghp_', 'R7planted0123456789abcdefghijABCDEFGH')}" });`, keeps: 'new Octokit({ auth: "' },
  { name: 'GitHub OAuth token', kind: 'github-token', secret: j('gho_', '16C7e42F292c6912E7710c838347Ae178B4a'), text: `token=${j('gho_', '16C7e42F292c6912E7710c838347Ae178B4a')}`, keeps: 'token=' },
  { name: 'GitHub fine-grained token', kind: 'github-token', secret: j('github_pat_', '11ABCDEFG0123456789abc_', 'a'.repeat(20), 'B'.repeat(20), '0123456789abcdefghi'),
    text: `GH = '${j('github_pat_', '11ABCDEFG0123456789abc_', 'a'.repeat(20), 'B'.repeat(20), '0123456789abcdefghi')}'`, keeps: 'GH = ' },
  { name: 'GitLab personal access token', kind: 'gitlab-token', secret: j('glpat-', 'xPlanted9Tok3nABCDEF'), text: `headers = {"PRIVATE-TOKEN": "${j('glpat-', 'xPlanted9Tok3nABCDEF')}"}`, keeps: 'headers = {"PRIVATE-TOKEN": "' },
  { name: 'Slack bot token', kind: 'slack-token', secret: j('xoxb-', '1234567890-0987654321-PlantedSlackTok'), text: `slack.token = "${j('xoxb-', '1234567890-0987654321-PlantedSlackTok')}"`, keeps: 'slack.token' },
  { name: 'Google API key', kind: 'google-api-key', secret: j('AIza', 'SyA1planted-KEY_0123456789abcdefghi'), text: `maps.load({ key: '${j('AIza', 'SyA1planted-KEY_0123456789abcdefghi')}' })`, keeps: 'maps.load({ key: ' },
  { name: 'Stripe live secret key', kind: 'stripe-key', secret: j('sk_live_', '51PlantedStripeKey0123456789'), text: `stripe = Stripe('${j('sk_live_', '51PlantedStripeKey0123456789')}')`, keeps: 'stripe = Stripe(' },
  { name: 'OpenAI project key', kind: 'openai-key', secret: j('sk-proj-', 'Pl4ntedOpenAIkey0123456789abcdefXYZ'), text: `const openai = new OpenAI({ apiKey: "${j('sk-proj-', 'Pl4ntedOpenAIkey0123456789abcdefXYZ')}" });`, keeps: 'new OpenAI({ apiKey: "' },
  { name: 'JWT', kind: 'jwt', secret: j('eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9', '.eyJzdWIiOiIxMjM0NTY3ODkwIn0', '.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlwcSplanted'),
    text: `fetch(url, { headers: { Authorization: 'Bearer ${j('eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9', '.eyJzdWIiOiIxMjM0NTY3ODkwIn0', '.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlwcSplanted')}' } })`, keeps: "Authorization: 'Bearer " },
  { name: 'password in a database URL', kind: 'url-password', secret: 'Pl4nted-Db-Pass', text: 'const db = connect("postgres://admin:Pl4nted-Db-Pass@db.internal:5432/app");', keeps: 'postgres://admin:' },
  { name: 'password assignment (quoted, high entropy)', kind: 'secret', secret: 'Zq81x-Pl4nted!pw', text: 'DB_PASSWORD = "Zq81x-Pl4nted!pw"\nDB_HOST = "db"', keeps: 'DB_HOST = "db"' },
  { name: 'api_key in JSON', kind: 'secret', secret: 'a9F3kPlanted27Qx', text: '{ "api_key": "a9F3kPlanted27Qx", "region": "eu" }', keeps: '"region": "eu"' },
  { name: 'client_secret in YAML (unquoted)', kind: 'secret', secret: 'cS3cr3t-Planted-99x', text: 'oauth:\n  client_secret: cS3cr3t-Planted-99x\n  scope: read', keeps: 'scope: read' },
  { name: 'token assignment in Python', kind: 'secret', secret: 'tK9Planted0aZ7Bc', text: "self.auth_token = 'tK9Planted0aZ7Bc'\nself.retries = 3", keeps: 'self.retries = 3' },
];

/** Code that names secrets without holding one: nothing may change. */
const CLEAN: Array<{ name: string; text: string }> = [
  { name: 'reading a password from the environment', text: 'const password = process.env.DB_PASSWORD;\nconst token = config.auth.token;' },
  { name: 'a type annotation', text: 'function login(user: string, password: string, token?: string): Promise<Session> {' },
  { name: 'a tokenizer and a call', text: 'const tokenizer = new WordPieceTokenizer(vocab);\nconst apiKey = readApiKey(path);' },
  { name: 'a placeholder and a short word', text: 'API_KEY="<your-api-key>"\npassword = "changeme"\nsecret = "${SECRET}"' },
  { name: 'ordinary identifiers and hashes', text: 'export const SHA = "9f86d081884c7d659a2feaa0c55ad015";\nconst skeleton = sk-ip;\nconst tasks = tasksByOwner.get(ownerId);' },
  { name: 'a comparison and a loop', text: 'if (secretCount > 0) {\n  for (const t of tokens) emit(t);\n}' },
];

describe('secret redaction', () => {
  for (const c of CASES) {
    it(`redacts ${c.name}`, () => {
      const r = redactSecrets(c.text);
      assert.ok(!r.text.includes(c.secret), r.text);
      assert.ok(r.kinds.length > 0, `${c.kind}: ${r.kinds.join(',')}`);
      assert.ok(r.text.includes('<redacted:'), r.text);
      assert.ok(r.text.includes(c.keeps), r.text);
    });
  }

  for (const p of PLANTED) {
    it(`redacts the ${p.name} (issue 28's list)`, () => {
      const r = redactSecrets(p.text);
      assert.ok(!r.text.includes(p.secret), r.text);
      assert.ok(r.kinds.length > 0 && r.text.includes('<redacted:'), r.text);
      assert.strictEqual(r.text.split('\n').length, p.text.split('\n').length);
    });
  }

  for (const c of CLEAN) {
    it(`leaves code alone: ${c.name}`, () => {
      assert.deepStrictEqual(redactSecrets(c.text), { text: c.text, kinds: [] });
    });
  }

  it('redacts every string of a request body, nested, and leaves numbers and keys', () => {
    const kinds: string[] = [];
    const body = { model: 'm', n_predict: 8, input_extra: [{ filename: 'src/a.ts', text: `k = "${j('ghp_', 'R7planted0123456789abcdefghijABCDEFG')}"` }], stop: ['\n\n'] };
    const out = redactDeep(body, kinds);
    assert.deepStrictEqual(kinds, ['github-pat']);
    assert.strictEqual(out.input_extra[0].text, 'k = "<redacted:github-pat>"');
    assert.deepStrictEqual({ ...out, input_extra: body.input_extra }, body);
    assert.ok(body.input_extra[0].text.includes('ghp_'), 'the input is not modified');
  });

  it('judges assigned values by length, character classes and entropy', () => {
    for (const v of ['Zq81x-Pl4nted!pw', 'a9F3kPlanted27Qx', 'wJalrXUtnFEMI/K7MDENG']) assert.ok(looksLikeSecretValue(v), v);
    for (const v of ['changeme', 'password', 'aaaaaaaaaaaa', 'short', 'has spaces in it', '${TOKEN}', 'xxxxxxxxxx']) assert.ok(!looksLikeSecretValue(v), v);
  });

  const LOOPBACK: Array<[string, boolean]> = [
    ['http://127.0.0.1:8080', true], ['http://127.8.9.10/v1', true], ['http://localhost:11434', true], ['http://LOCALHOST.:1234', true],
    ['http://[::1]:8000/v1', true], ['http://[::ffff:127.0.0.1]:8000', true],
    ['http://10.0.0.5:8000/v1', false], ['http://192.168.1.20:11434', false], ['https://api.openai.com/v1', false], ['http://0.0.0.0:8080', false],
    ['http://127.0.0.1.nip.io:8080', false], ['http://localhost.example.com', false], ['http://[::2]:80', false], ['not a url', false],
  ];
  for (const [url, loop] of LOOPBACK) {
    it(`${url} is ${loop ? '' : 'not '}loopback`, () => assert.strictEqual(isLoopbackUrl(url), loop));
  }

  it('redacts every request, loopback included, unless the user exempted loopback', () => {
    for (const url of ['http://127.0.0.1:8080', 'http://models.example.test', undefined]) assert.ok(redactsRequestTo(url), String(url));
    assert.ok(!redactsRequestTo('http://127.0.0.1:8080', false) && !redactsRequestTo('http://localhost:11434', false));
    assert.ok(redactsRequestTo('http://10.0.0.5:8000', false) && redactsRequestTo(undefined, false), 'the exemption is for loopback only');
  });

  it('classifies bare host names the same way', () => {
    assert.ok(isLoopbackHost('127.0.0.1') && isLoopbackHost('::1') && isLoopbackHost('localhost'));
    assert.ok(!isLoopbackHost('128.0.0.1') && !isLoopbackHost('127.0.0.256') && !isLoopbackHost('models.example.test'));
  });
});
