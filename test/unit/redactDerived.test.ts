// What the text derives itself is no secret (engine/src/redact/derived.ts): a JWT minted with one of
// the file's own literals, `Basic` credentials of a literal password, a key template, a WebSocket
// nonce and a regex character class stay; the same tokens without their key in the file, or with a
// key that is itself a secret, are redacted. Tokens are minted here, so this file holds none.
import * as assert from 'node:assert';
import { createHmac } from 'node:crypto';
import { documentItems } from '../../engine/src/indexer/documents';
import { redactSecrets } from '../../engine/src/redact';
import type { ChunkedFile } from '../../engine/src/types';

const b64url = (o: object): string => Buffer.from(JSON.stringify(o)).toString('base64url');

function jwt(payload: object, key: string | Buffer, alg = 'HS256'): string {
  const head = `${b64url({ alg, typ: 'JWT' })}.${b64url(payload)}`;
  const hash = { HS256: 'sha256', HS384: 'sha384', HS512: 'sha512' }[alg]!;
  return `${head}.${createHmac(hash, key).update(head).digest('base64url')}`;
}

const TOKEN = jwt({ sub: 'user-42', role: 'admin', iat: 1700000000 }, 'fixture-signing-key');
const HEX_KEY = 'c0ffee00'.repeat(8);
const HEX_TOKEN = jwt({ sub: 'service-account-7', scope: 'deploy' }, Buffer.from(HEX_KEY, 'hex'), 'HS512');
const basic = (user: string, pass: string): string => Buffer.from(`${user}:${pass}`).toString('base64');

interface Case {
  name: string;
  text: string;
  /** The value that must stay (kept) or go (redacted). */
  value: string;
  kept: boolean;
}

const CASES: Case[] = [
  { name: 'a JWT minted with a key literal of the same text', kept: true, value: TOKEN,
    text: `const key = 'fixture-signing-key'\nit('authorizes', () => {\n  const credential = '${TOKEN}'\n  verify(credential, key)\n})\n` },
  { name: 'a JWT minted with a hex key literal (HS512)', kept: true, value: HEX_TOKEN,
    text: `const raw = Buffer.from('${HEX_KEY}', 'hex')\nconst expected = '${HEX_TOKEN}'\n` },
  { name: 'that JWT without its hex key', kept: false, value: HEX_TOKEN, text: `const expected = '${HEX_TOKEN}'\n` },
  { name: 'the same JWT when its key is not in the text', kept: false, value: TOKEN,
    text: `it('authorizes', () => {\n  const credential = '${TOKEN}'\n  verify(credential, process.env.KEY)\n})\n` },
  { name: 'a JWT whose key literal is itself a secret', kept: false, value: jwt({ sub: 'svc' }, 'a9F3kPl4nted27QxZ81wLm'),
    text: `const JWT_SECRET = 'a9F3kPl4nted27QxZ81wLm'\nconst auth = 'Bearer ${jwt({ sub: 'svc' }, 'a9F3kPl4nted27QxZ81wLm')}'\n` },
  { name: 'a JWT signed with RS256 (no key in the text can mint it)', kept: false, value: `${b64url({ alg: 'RS256' })}.${b64url({ sub: 'a-subject-id' })}.c2lnbmF0dXJlLWJ5dGVzLWhlcmU`,
    text: `const token = '${b64url({ alg: 'RS256' })}.${b64url({ sub: 'a-subject-id' })}.c2lnbmF0dXJlLWJ5dGVzLWhlcmU'\n` },
  { name: 'Basic credentials of a literal password', kept: true, value: basic('test-user-a', 'test-password-a'),
    text: `const username = 'test-user-a'\nconst password = 'test-password-a'\nconst credential = '${basic('test-user-a', 'test-password-a')}'\n` },
  { name: 'Basic credentials whose password is not in the text', kept: false, value: basic('admin', 'Pl4nted-password'),
    text: `headers.set('Authorization', 'Basic ${basic('admin', 'Pl4nted-password')}')\n` },
  { name: 'a private key template (no key material)', kept: true, value: '-----BEGIN PRIVATE KEY-----',
    text: 'const pem = `-----BEGIN PRIVATE KEY-----\\n${encodeBase64(exported)}\\n-----END PRIVATE KEY-----`\n' },
  { name: 'a WebSocket handshake key (a public nonce)', kept: true, value: 'x3JJHMbDL1EzLkh9GBhXDw==',
    text: 'req.header("Sec-WebSocket-Key", "x3JJHMbDL1EzLkh9GBhXDw==")\n' },
  { name: 'a regex character class assigned to a token name', kept: true, value: '[A-Za-z0-9._~+/-]+=*',
    text: "const TOKEN_STRINGS = '[A-Za-z0-9._~+/-]+=*'\n" },
];

describe('values the text derives itself are not redacted', () => {
  for (const c of CASES) {
    it(`${c.kept ? 'keeps' : 'redacts'} ${c.name}`, () => {
      const r = redactSecrets(c.text, 'src/auth.test.ts');
      if (c.kept) assert.deepStrictEqual(r, { text: c.text, kinds: [] });
      else assert.ok(!r.text.includes(c.value) && r.kinds.length > 0, r.text);
    });
  }

  it("judges a chunk by its whole file: the key in another chunk keeps the file's fixture", () => {
    const lines = ["const key = 'fixture-signing-key'", '', 'function a() {', `  return '${TOKEN}'`, '}'];
    const chunked = { chunks: [{ startLine: 2, endLine: 4, kind: 'function', name: 'a', calls: [] }], definitions: [], imports: [] } as unknown as ChunkedFile;
    const [item] = [...documentItems('src/a.test.ts', lines, chunked, new Map() as never, () => 1)];
    assert.ok(item.code.includes(TOKEN), item.code);
    // The same chunk alone (a prompt that holds no key) is redacted.
    assert.ok(!redactSecrets(lines.slice(2).join('\n')).text.includes(TOKEN));
  });
});
