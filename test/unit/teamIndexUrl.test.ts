import * as assert from 'assert';
import { splitTeamUrl, teamSecretKey } from '../../extension/src/teamIndexUrl';

describe('team index URL setting', () => {
  it('takes an embedded password out of the URL, so the setting never holds it', () => {
    const r = splitTeamUrl(' postgres://dev:s%40cret@db.example.com:5432/code?sslmode=verify-full ');
    assert.deepStrictEqual(r, { url: 'postgres://dev@db.example.com:5432/code?sslmode=verify-full', password: 's@cret' });
    assert.deepStrictEqual(splitTeamUrl('postgresql://dev@127.0.0.1:5432/code'), { url: 'postgresql://dev@127.0.0.1:5432/code' });
  });

  it('refuses what is not a PostgreSQL URL with a message that says what is expected', () => {
    for (const bad of ['db.example.com:5432', 'https://db.example.com/code', 'postgres://']) {
      const r = splitTeamUrl(bad);
      assert.ok('error' in r, bad);
      assert.match(r.error, /postgres:\/\//, bad);
    }
  });

  it('keys the stored password by the exact URL: another host, user, port or database finds none', () => {
    const key = teamSecretKey('postgres://dev@db.example.com:5432/code');
    for (const other of ['postgres://dev@evil.example.com:5432/code', 'postgres://ops@db.example.com:5432/code', 'postgres://dev@db.example.com:6543/code', 'postgres://dev@db.example.com:5432/other']) {
      assert.notStrictEqual(teamSecretKey(other), key, other);
    }
  });
});
