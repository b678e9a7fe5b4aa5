// Converts the vendored gitleaks default config (engine/src/redact/gitleaks/gitleaks.toml) into the
// JSON the redactor loads (rules.json next to it): the engine then needs no TOML parser at run time
// and the bundle inlines the rules. Descriptions are dropped; everything that decides a match is kept.
// Usage: node scripts/gitleaks-rules.mjs [--check]   (--check: exit 1 when rules.json is stale)
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'smol-toml';

const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'engine', 'src', 'redact', 'gitleaks');
const UPSTREAM = { repository: 'https://github.com/gitleaks/gitleaks', file: 'config/gitleaks.toml', commit: '009e025ad4106ab333aa0b9dc4f2a884390d134c', license: 'MIT' };

export function convert(tomlText) {
  const cfg = parse(tomlText);
  const allowlist = (a) => {
    const out = {};
    for (const key of ['condition', 'regexTarget', 'regexes', 'stopwords', 'paths']) if (a[key] !== undefined) out[key] = a[key];
    return out;
  };
  const rules = cfg.rules.map((r) => {
    const out = { id: r.id };
    for (const key of ['regex', 'path', 'entropy', 'secretGroup', 'keywords']) if (r[key] !== undefined) out[key] = r[key];
    if (r.allowlists) out.allowlists = r.allowlists.map(allowlist);
    return out;
  });
  return { upstream: UPSTREAM, allowlist: allowlist(cfg.allowlist), rules };
}

const json = JSON.stringify(convert(fs.readFileSync(path.join(dir, 'gitleaks.toml'), 'utf8')), null, 1) + '\n';
const target = path.join(dir, 'rules.json');
if (process.argv.includes('--check')) {
  const same = fs.existsSync(target) && fs.readFileSync(target, 'utf8') === json;
  if (!same) console.error(`${target} is stale: run node scripts/gitleaks-rules.mjs`);
  process.exit(same ? 0 : 1);
}
fs.writeFileSync(target, json);
console.log(`wrote ${target}`);
