// False positives of secret redaction in ordinary code: indexes each DEV repository with the real
// engine (lexical only; the chunks the index would hold), counts the placeholders in the indexed
// code (these repositories hold no real secret, so each one is a false positive), and times the
// redactor on the same chunks' raw text. Prints redactions per 1,000 chunks (goal: <= 1) and what
// was redacted, by rule, so a false positive can be judged.
// Usage: npm run bench:redaction [-- --repos DIR[,DIR...]]   (default ../shared/bench/repos/*, ../shared/bench-langs/repos/*)
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Engine } from '../../engine/src/engine';
import type { IndexedChunk } from '../../engine/src/indexer/indexedSink';
import { findSecrets, redactionContext, type SecretContext } from '../../engine/src/redact';
import { familyCoverage } from './redactionFamilies';

const ROOT = path.join(__dirname, '..', '..', '..');

function repoDirs(): string[] {
  const arg = process.argv.indexOf('--repos');
  const parents = arg > 0 ? process.argv[arg + 1].split(',') : ['../shared/bench/repos', '../shared/bench-langs/repos'].map((p) => path.join(ROOT, p));
  return parents.flatMap((p) => fs.readdirSync(p, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => path.join(p, d.name)));
}

interface RepoResult {
  repo: string;
  chunks: number;
  redactions: number;
  redactMs: number;
  examples: string[];
}

async function measure(repo: string): Promise<RepoResult> {
  const chunks: IndexedChunk[] = [];
  const indexDir = fs.mkdtempSync(path.join(os.tmpdir(), 'reporecall-redaction-bench-'));
  const engine = await Engine.open({ root: repo, indexDir, dense: false }, { hooks: { onIndexed: { chunks: async (items) => void chunks.push(...items), file: () => undefined } } });
  try {
    await engine.indexAll();
  } finally {
    await engine.close();
    fs.rmSync(indexDir, { recursive: true, force: true });
  }
  const files = new Map<string, { lines: string[]; secrets: SecretContext }>();
  const fileOf = (rel: string): { lines: string[]; secrets: SecretContext } => {
    let f = files.get(rel);
    if (!f) {
      const text = fs.readFileSync(path.join(repo, rel), 'utf8');
      files.set(rel, (f = { lines: text.split('\n'), secrets: redactionContext(text, rel) }));
    }
    return f;
  };
  let redactions = 0;
  let redactMs = 0;
  const examples: string[] = [];
  for (const c of chunks) {
    redactions += c.code.split('<redacted:').length - 1;
    const file = fileOf(c.chunk.file);
    const raw = file.lines.slice(c.chunk.startLine, c.chunk.endLine + 1).join('\n');
    const t0 = performance.now();
    const found = findSecrets(raw, c.chunk.file, file.secrets);
    redactMs += performance.now() - t0;
    for (const f of found) {
      const lineStart = raw.lastIndexOf('\n', f.start) + 1;
      const lineEnd = raw.indexOf('\n', f.end);
      examples.push(`${f.rule}  ${c.chunk.file}:${c.chunk.startLine + raw.slice(0, f.start).split('\n').length}  ${raw.slice(lineStart, lineEnd < 0 ? undefined : lineEnd).trim().slice(0, 160)}`);
    }
  }
  return { repo: path.basename(repo), chunks: chunks.length, redactions, redactMs, examples };
}

async function main(): Promise<void> {
  const coverage = familyCoverage();
  console.log(`gitleaks families caught on generated positives: ${coverage.caught} of ${coverage.families} (goal >= 120)`);
  for (const m of coverage.misses) console.log(`    missed ${m}`);
  const results: RepoResult[] = [];
  for (const repo of repoDirs()) {
    const r = await measure(repo);
    results.push(r);
    console.log(`${r.repo.padEnd(40)} chunks ${String(r.chunks).padStart(6)}  redactions ${String(r.redactions).padStart(3)}  per 1k ${((1000 * r.redactions) / r.chunks).toFixed(2).padStart(6)}  redact ${(r.redactMs / r.chunks).toFixed(3)} ms/chunk`);
    for (const e of r.examples) console.log(`    ${e}`);
  }
  const chunks = results.reduce((s, r) => s + r.chunks, 0);
  const redactions = results.reduce((s, r) => s + r.redactions, 0);
  const ms = results.reduce((s, r) => s + r.redactMs, 0);
  console.log(`TOTAL ${results.length} repositories, ${chunks} chunks, ${redactions} redactions: ${((1000 * redactions) / chunks).toFixed(2)} per 1,000 chunks (goal <= 1); redactor ${(ms / chunks).toFixed(3)} ms per chunk, ${ms.toFixed(0)} ms in all`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
