// gitleaks' rule families caught on positives generated from each rule's own regex (randexp,
// seeded), as gitleaks' own tests generate theirs: each sample carries the rule's first keyword on
// the line above, and path-restricted rules run on a file they apply to. A family counts as caught
// when each of its rules catches at least 9 of 10 samples. Used by test/unit/redactRules.test.ts
// (the goal) and printed by `npm run bench:redaction`.
import { findSecrets, GITLEAKS_RULES, ruleFamily } from '../../engine/src/redact';

interface RandExpGen {
  max: number;
  randInt: (a: number, b: number) => number;
  defaultRange: { subtract(from: number, to: number): void };
  gen(): string;
}
// eslint-disable-next-line @typescript-eslint/no-require-imports
const RandExp: new (re: RegExp) => RandExpGen = require('randexp');

/** Deterministic samples: a linear congruential generator instead of Math.random. */
function seeded(seed: number): () => number {
  let s = seed;
  return () => ((s = (s * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
}

/** `n` texts that match `rule.re`, each with the rule's first keyword on the line above (as a real leak names its service). */
function positives(rule: (typeof GITLEAKS_RULES)[number], n: number, rnd: () => number): string[] {
  const gen = new RandExp(new RegExp(rule.re.source));
  gen.max = 60;
  gen.randInt = (a, b) => a + Math.floor(rnd() * (b - a + 1));
  gen.defaultRange.subtract(0, 31);
  gen.defaultRange.subtract(127, 0xffff);
  const valid = new RegExp(rule.re.source);
  const out: string[] = [];
  for (let tries = 0; out.length < n && tries < 500; tries++) {
    const text = `// ${rule.keywords[0] ?? ''}\nconst value = ${gen.gen()}\n`;
    if (valid.test(text)) out.push(text); // randexp ignores \b: a sample the regex itself rejects is no positive
  }
  return out;
}

/** A file each path-restricted rule applies to (it runs only on such files, as gitleaks runs it). */
const SAMPLE_PATH: Record<string, string> = {
  'freemius-secret-key': 'src/freemius.php', 'hashicorp-tf-password': 'infra/main.tf',
  'kubernetes-secret-yaml': 'deploy/secret.yaml', 'nuget-config-password': 'nuget.config',
};

export interface FamilyCoverage {
  caught: number;
  families: number;
  misses: string[];
}

export function familyCoverage(seed = 20261127): FamilyCoverage {
  const rnd = seeded(seed);
  const byFamily = new Map<string, boolean>();
  const misses: string[] = [];
  for (const rule of GITLEAKS_RULES) {
    const samples = positives(rule, 10, rnd);
    const caught = samples.filter((t) => findSecrets(t, SAMPLE_PATH[rule.id]).length > 0).length;
    const ok = samples.length === 10 && caught >= 9;
    if (!ok) misses.push(`${rule.id}: ${caught}/${samples.length}, e.g. ${JSON.stringify(samples.find((t) => !findSecrets(t, SAMPLE_PATH[rule.id]).length)?.slice(0, 160))}`);
    byFamily.set(ruleFamily(rule.id), (byFamily.get(ruleFamily(rule.id)) ?? true) && ok);
  }
  // pkcs12-file matches file names only and is not compiled: a family of the 130 we cannot catch.
  const families = new Set([...GITLEAKS_RULES.map((r) => r.id), 'pkcs12-file'].map(ruleFamily)).size;
  return { caught: [...byFamily.values()].filter(Boolean).length, families, misses };
}
