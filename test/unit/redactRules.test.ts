// gitleaks' rule set as the redactor runs it (engine/src/redact): the vendored config converts and
// compiles (one rule skipped, with why), the Go-to-JavaScript regex conversion keeps RE2's meaning,
// each rule family catches positives generated from its own regex (as gitleaks' tests generate
// theirs; randexp, seeded) with its keyword, entropy and allowlists applied, upstream negatives and
// ordinary code stay untouched, and no rule runs over more than a window of a long line.
import * as assert from 'node:assert';
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';
import { goRegexToJs, UnsupportedRegex } from '../../engine/src/redact/goRegex';
import { compileAll, findSecrets, GITLEAKS_RULES, redactSecrets, ruleFamily, UPSTREAM, WINDOW } from '../../engine/src/redact';
import { familyCoverage } from '../bench/redactionFamilies';

const ROOT = path.join(__dirname, '..', '..', '..');
const j = (...parts: string[]): string => parts.join(''); // no whole credential literal in this file

describe('gitleaks rules in the redactor', function () {
  this.timeout(120_000);

  it('vendors the upstream config with its commit, and rules.json is its conversion', () => {
    assert.match(UPSTREAM.commit, /^[0-9a-f]{40}$/);
    execFileSync(process.execPath, [path.join(ROOT, 'scripts', 'gitleaks-rules.mjs'), '--check'], { cwd: ROOT, stdio: 'pipe' });
  });

  it('compiles every rule but the one that matches file names only', () => {
    assert.deepStrictEqual(compileAll(), [{ id: 'pkcs12-file', reason: 'matches file paths only, not content' }]);
    assert.strictEqual(GITLEAKS_RULES.length, 217);
    assert.strictEqual(new Set([...GITLEAKS_RULES.map((r) => r.id), 'pkcs12-file'].map(ruleFamily)).size, 130);
  });

  describe('RE2 to JavaScript', () => {
    const CASES: Array<[string, string[], string[]]> = [
      ['(?i)abc', ['ABC', 'aBc'], ['abd']],
      ['\\b(p8e-(?i)[a-z0-9]{3})x', ['p8e-A1bx'], ['P8E-a1bx', 'p8e-a1bX']],
      ['(?i)x(?-i:[Aa]b|AB)y', ['Xaby', 'XABY'], ['xaBy']],
      ['a\\z', ['a'], ['a\n']],
      ['(?P<alg>ab)(c)', ['abc'], []],
      ['x[^]]+]', ['xab]'], ['x]]']],
      ['(?s:.){3}', ['a\nb'], []],
      ['a.b', ['axb'], ['a\nb']],
      ['^\\${(?:[A-Z_]+)}$', ['${HOME_DIR}'], ['${home}']],
      ['[\\w .-/]+z', ['a./z'], []],
    ];
    for (const [go, yes, no] of CASES) {
      it(`${go}`, () => {
        const re = new RegExp(goRegexToJs(go));
        for (const s of yes) assert.ok(re.test(s), `${JSON.stringify(s)} should match ${re.source}`);
        for (const s of no) assert.ok(!re.test(s), `${JSON.stringify(s)} should not match ${re.source}`);
      });
    }
    it('refuses what it cannot convert', () => {
      for (const go of ['\\pL', '(?U)a', '\\Qa\\E', '(?=a)']) assert.throws(() => goRegexToJs(go), UnsupportedRegex, go);
    });
  });

  it('catches at least 120 of the 130 families on positives generated from their own regexes', () => {
    const { caught, misses } = familyCoverage();
    assert.ok(caught >= 120, `${caught} families caught; missed:\n${misses.join('\n')}`);
  });

  it('applies gitleaks allowlists and entropy: documented examples and low-entropy values pass its rules', () => {
    const texts = [
      `aws_access_key_id = ${j('AKIA', 'IOSFODNN7', 'EXAMPLE')}`, // the AWS docs' key: allowlisted by .+EXAMPLE$
      `maps_key = "${j('AIzaSy', 'abcdefghijklmnopqrstuvwxyz1234567')}"`, // gcp allowlist
      `vault_token = ${j('s.', 'abcdefghijklmnopqrstuvwx')}`, // vault allowlist: letters only
      'api_key = "aaaaaaaaaaaaaaaaaaaa"', // generic: entropy too low
      'secret_name = "payments-webhook-signing"', // generic: no digit
    ];
    const gitleaksIds = new Set(GITLEAKS_RULES.map((r) => r.id)); // our own rules may still take an assigned key
    for (const t of texts) assert.deepStrictEqual(findSecrets(t).filter((f) => gitleaksIds.has(f.rule)), [], t);
  });

  it("leaves gitleaks' own negative examples and ordinary code alone", () => {
    // fps of generic.go at gitleaks@032da0d47d4537e8a88463d5577a7ced041c15a6
    const upstream = ['client_vpn_endpoint_id = aws_ec2_client_vpn_endpoint.client-vpn-endpoint.id', 'password combination.\n\nR5: Regulatory--21'];
    const code = [
      "import { tokenize, type Token } from './lexer';",
      'const apiKey = process.env.OPENAI_API_KEY ?? config.get("openai.apiKey");',
      'headers: { Authorization: `Bearer ${await this.token()}` },',
      'def authenticate(self, username: str, password: str) -> Session:',
      'export const PRIMARY_KEY_COLUMN = "id";',
      'const url = `postgres://${user}:${password}@${host}:5432/${db}`;',
      'git clone ssh://git@github.com:22/org/repo.git',
      'if (basic && token) return `Basic ${btoa(user + ":" + pass)}`;',
    ];
    for (const t of [...upstream, ...code]) assert.deepStrictEqual(redactSecrets(t), { text: t, kinds: [] }, t);
  });

  it('keeps line breaks: a private key block becomes one placeholder and the same number of lines', () => {
    const body = Array.from({ length: 6 }, (_, i) => j('MIIEpAIBAAKCAQEA', String(i).repeat(48))).join('\n');
    const text = `const k = \`-----BEGIN RSA PRIVATE KEY-----\n${body}\n-----END RSA PRIVATE KEY-----\`;\nuse(k);\n`;
    const r = redactSecrets(text);
    assert.strictEqual(r.text.split('\n').length, text.split('\n').length);
    assert.ok(!r.text.includes('MIIEpAIBAAKCAQEA') && r.text.endsWith('`;\nuse(k);\n'), r.text);
  });

  it('finds a secret across a window boundary and bounds every rule to a window on a long line', () => {
    const token = j('ghp_', 'R7planted0123456789abcdefghijABCDEFG');
    for (const at of [WINDOW - 20, 2 * WINDOW - 1030, 5 * WINDOW + 7]) {
      const text = `${'x'.repeat(at)} ${token} ${'y'.repeat(3 * WINDOW)}`;
      assert.ok(!redactSecrets(text).text.includes(token), `at ${at}`);
    }
    // Every keyword, assignment punctuation and long runs of value characters on one 1 MB line: what
    // makes backtracking regexes go quadratic. It must simply finish (mocha's timeout is the bound).
    const keywords = [...new Set(GITLEAKS_RULES.flatMap((r) => r.keywords))].join(' = ');
    const line = `${keywords} = ${'aB3+/'.repeat(400)}=`.repeat(Math.ceil(1_000_000 / (keywords.length + 2004)));
    assert.ok(line.length > 1_000_000);
    assert.ok(Array.isArray(findSecrets(line)));
  });
});
