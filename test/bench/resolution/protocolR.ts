// Protocol R (resolution): for identifier occurrences sampled from each repository (sample.ts),
// does the hover's "defines" name the definition a language service reaches (truthTs.ts: the
// TypeScript language service, for JavaScript too; truthPython.ts: Jedi; truthClang.ts: clangd)? Systems: `resolver` (the engine's symbolAt,
// names resolved as code) and `name-only` (symbolAt by spelling, the hover's pick among the
// definitions: the lookup before the resolver). Both run the engine's SymbolLookup over the
// repository's files with the chunker's definitions, without an index.
//   precision  = correct "defines" / all "defines" shown
//   coverage   = correct "defines" / occurrences whose true definition is in the repository (not local)
//   abstention = no "defines" / occurrences with no repository definition (locals, library names, builtins)
// A shown definition is correct when it is in the true definition's file and its line range holds
// the true definition's name.
import * as fs from 'fs';
import * as path from 'path';
import type { Tree } from 'web-tree-sitter';
import { Chunker } from '../../../engine/src/chunk';
import { SymbolLookup, type SymbolDefinition, type SymbolInfo } from '../../../engine/src/lookup/symbols';
import { loadRepo, type LanguageFamily, type Repo } from '../split';
import { candidates, stratifiedSample, SYNTAX_KINDS, type Occurrence } from './sample';
import { classify, type Truth, type TruthClass, type TruthDef } from './truth';
import { typescriptTruth } from './truthTs';
import { pythonTruth } from './truthPython';
import { clangTruth, scopeOfName, spelledTruth } from './truthClang';
import { IncludeResolver } from '../../../engine/src/resolve/includes';

export const R_SYSTEMS = ['resolver', 'name-only'] as const;
/** Languages with a language service for truth here (Go, Rust and Java have none offline: test/bench/README.md). */
const LANGUAGES: LanguageFamily[] = ['python', 'typescript', 'javascript', 'c', 'cpp'];
/** Occurrences per syntactic stratum and repository (5 strata: at least 300 per repository where the strata hold them). */
const PER_KIND = 72;
const SEED = 29;

export interface RMetrics {
  precision: number;
  coverage: number;
  abstention: number;
  n: number;
  shown: number;
  repo: number;
  no_repo_def: number;
  /** Occurrences the service gave no answer for (clangd: no location at all): outside every ratio; `no_truth_shown` of them got a "defines". */
  no_truth: number;
  no_truth_shown: number;
}

interface Scored {
  language: LanguageFamily;
  repo: string;
  kind: string;
  cls: TruthClass;
  shown: boolean;
  correct: boolean;
  /** For a miss (a repository definition not shown, or a wrong or needless "defines"): what was answered. */
  miss?: string;
}

/** The hover's choice among name-only definitions (extension/src/features/hover.ts pickDefinition). */
function hoverPick(s: SymbolInfo, rel: string): SymbolDefinition | undefined {
  const c = s.definitions.filter((d) => !(s.role === 'definition' && d.file === rel && d.declLine === s.line));
  return c.find((d) => !d.copyOf && d.file === rel) ?? c.find((d) => !d.copyOf) ?? c.find((d) => d.file === rel) ?? c[0];
}

function shownBy(system: string, s: SymbolInfo | null, rel: string): SymbolDefinition | undefined {
  if (!s) return undefined;
  if (system === 'resolver') return s.resolution === 'defines' || s.resolution === 'name' ? hoverPick(s, rel) ?? s.definitions[0] : undefined;
  return hoverPick(s, rel);
}

async function lookups(repo: Repo, chunker: Chunker): Promise<Record<string, SymbolLookup>> {
  const defs = new Map<string, Array<{ file: string; chunkId: number }>>();
  for (const f of repo.files) {
    for (const d of (await chunker.chunk(f.relPath, f.content)).definitions) {
      let xs = defs.get(d.name);
      if (!xs) defs.set(d.name, (xs = []));
      xs.push({ file: f.relPath, chunkId: -1 });
    }
  }
  const src = {
    chunker,
    textOf: (file: string) => repo.byPath.get(file)?.lines.join('\n'),
    definitionsOf: (name: string) => defs.get(name) ?? [],
    chunkRange: () => undefined,
    chunksWithTerm: () => [],
    hasFile: (file: string) => repo.byPath.has(file),
  };
  return { resolver: new SymbolLookup(src), 'name-only': new SymbolLookup(src, { resolve: false }) };
}

/** The sample's truth, cached per repository, seed and sample (the language services are slow). */
async function truthFor(repo: Repo, sample: Occurrence[], chunker: Chunker, cacheDir: string): Promise<Truth[]> {
  // clangd truths carry `unanswered` and `compileErrors` since s19 (C++: template parameters local), and since s24 come from
  // compiles with the quoted include path (truthClang.ts): older cached ones are read again.
  const version = repo.language === 'c' ? '.clangd3' : repo.language === 'cpp' ? '.clangd4' : '';
  const key = `${repo.name}.${SEED}.${PER_KIND}.${sample.length}.${hash(JSON.stringify(sample))}${version}.json`;
  const file = path.join(cacheDir, key);
  const read = (ts: Truth[]): Promise<Truth[]> => (repo.language === 'cpp' ? memberScopes(repo, chunker, ts.map((t) => spelledTruth(repo, t))) : Promise.resolve(ts));
  if (fs.existsSync(file)) return read(JSON.parse(fs.readFileSync(file, 'utf8')) as Truth[]);
  const t0 = performance.now();
  const truth = repo.language === 'python' ? await pythonTruth(repo, sample, chunker)
    : repo.language === 'c' || repo.language === 'cpp' ? await clangTruth(repo, sample, chunker) : typescriptTruth(repo, sample);
  console.log(`  ${repo.name}: truth for ${sample.length} occurrences in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  fs.mkdirSync(cacheDir, { recursive: true });
  fs.writeFileSync(file, JSON.stringify(truth));
  return read(truth);
}

/**
 * C++: where a definition sits (member, local, module) read from its file with its macros replaced as
 * the resolver reads it: `class FMT_API file {` parses as an error, and its methods looked local.
 */
async function memberScopes(repo: Repo, chunker: Chunker, ts: Truth[]): Promise<Truth[]> {
  const src = { textOf: (f: string) => repo.byPath.get(f)?.content, hasFile: (f: string) => repo.byPath.has(f), grammarFor: (f: string, t: string) => chunker.grammarFor(f, t), definitionsOf: () => [] };
  const includes = new IncludeResolver(src, 'linux', true);
  // One parse per file, however many definitions it holds (fmt's format.h holds dozens of `write`s).
  const trees = new Map<string, Tree | undefined>();
  const treeOf = async (f: string): Promise<Tree | undefined> => {
    if (trees.has(f)) return trees.get(f);
    const text = includes.cppText(f);
    const tree = text === undefined ? undefined : (await chunker.grammarFor(f, text))?.parser.parse(text) ?? undefined;
    trees.set(f, tree);
    return tree;
  };
  const scopeIn = async (d: TruthDef): Promise<TruthDef['scope']> => {
    const name = (await treeOf(d.file))?.rootNode.descendantForPosition({ row: d.line, column: d.column });
    return name ? scopeOfName(name) : d.scope;
  };
  try {
    const out: Truth[] = [];
    for (const t of ts) {
      const defs = [];
      for (const d of t.defs) defs.push(d.scope === 'import' ? d : { ...d, scope: await scopeIn(d) });
      out.push({ ...t, defs });
    }
    return out;
  } finally {
    for (const tree of trees.values()) tree?.delete();
    includes.dispose();
  }
}

export async function runProtocolR(split: string, repoNames: string[], cacheDir: string): Promise<Record<string, Record<string, unknown>>> {
  const chunker = await Chunker.create();
  const scored = new Map<string, Scored[]>(R_SYSTEMS.map((s) => [s, []]));
  for (const name of repoNames) {
    const language = repoLanguage(split, name);
    if (!language || !LANGUAGES.includes(language)) continue;
    const repo = loadRepo(split, name, language);
    const sample = stratifiedSample(await candidates(repo, chunker), PER_KIND, SEED);
    const truth = await truthFor(repo, sample, chunker, cacheDir);
    const systems = await lookups(repo, chunker);
    for (const t of truth) {
      const cls = classify(t);
      if (cls === 'self') continue;
      const o = t.occurrence;
      const kind = cls === 'local' ? 'local' : o.syntax;
      for (const sys of R_SYSTEMS) {
        const s = await systems[sys].symbolAt(o.file, o.line, o.column);
        const d = shownBy(sys, s, o.file);
        const correct = !!d && cls === 'repo' && t.defs.some((td) => td.scope !== 'local' && td.scope !== 'import' && td.file === d.file && d.startLine <= td.line && td.line <= d.endLine);
        const miss = correct || cls === 'no-truth' ? undefined : d ? (cls === 'repo' ? 'wrong' : `shown-${cls}`) : cls === 'repo' ? (s?.resolution ?? 'null') : undefined;
        scored.get(sys)!.push({ language, repo: name, kind, cls, shown: !!d, correct, ...(miss ? { miss } : {}) });
        if (process.env.RR_R_DEBUG === sys && cls !== 'no-truth' && ((d && !correct) || (!d && cls === 'repo'))) {
          console.log(`R ${sys} ${kind}/${cls} ${o.file}:${o.line + 1}:${o.column} ${o.name} -> ${d ? `${d.file}:${d.startLine + 1}-${d.endLine + 1}` : `(none: ${s?.resolution ?? 'null'})`} truth ${t.defs.map((x) => `${x.file}:${x.line + 1}:${x.scope}`).join(',') || '-'}${t.external ? ' +external' : ''}`);
        }
      }
    }
    for (const l of Object.values(systems)) l.dispose();
    console.log(`  ${name}: protocol R on ${truth.length} occurrences`);
  }
  await chunker.dispose();
  const R: Record<string, Record<string, unknown>> = {};
  for (const sys of R_SYSTEMS) {
    const xs = scored.get(sys)!;
    const out: Record<string, unknown> = { all: metrics(xs) };
    for (const lang of LANGUAGES) {
      const ls = xs.filter((x) => x.language === lang);
      if (!ls.length) continue;
      const byKind = Object.fromEntries([...SYNTAX_KINDS, 'local'].map((k) => [k, metrics(ls.filter((x) => x.kind === k))]));
      const byRepo = Object.fromEntries([...new Set(ls.map((x) => x.repo))].map((r) => [r, metrics(ls.filter((x) => x.repo === r))]));
      out[lang] = { ...metrics(ls), by_kind: byKind, by_repo: byRepo, misses: missCounts(ls) };
    }
    R[sys] = out;
  }
  return R;
}

/** Misses by kind and answer (`member:candidates`, `call:wrong`, `local:shown-local`), most first: where coverage and precision go. */
function missCounts(xs: Scored[]): Record<string, number> {
  const counts = new Map<string, number>();
  for (const x of xs) if (x.miss) counts.set(`${x.kind}:${x.miss}`, (counts.get(`${x.kind}:${x.miss}`) ?? 0) + 1);
  return Object.fromEntries([...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)));
}

function metrics(all: Scored[]): RMetrics {
  const round = (x: number) => Math.round(x * 1000) / 1000;
  const unknown = all.filter((x) => x.cls === 'no-truth');
  const xs = all.filter((x) => x.cls !== 'no-truth');
  const shown = xs.filter((x) => x.shown).length;
  const correct = xs.filter((x) => x.correct).length;
  const repo = xs.filter((x) => x.cls === 'repo').length;
  const none = xs.filter((x) => x.cls !== 'repo');
  return {
    precision: shown ? round(correct / shown) : 0, coverage: repo ? round(correct / repo) : 0,
    abstention: none.length ? round(none.filter((x) => !x.shown).length / none.length) : 0,
    n: xs.length, shown, repo, no_repo_def: none.length, no_truth: unknown.length, no_truth_shown: unknown.filter((x) => x.shown).length,
  };
}

function repoLanguage(split: string, name: string): LanguageFamily | undefined {
  const meta = JSON.parse(fs.readFileSync(path.join(split, 'repos.json'), 'utf8')) as unknown;
  const rows = Array.isArray(meta) ? meta : Object.entries(meta as Record<string, object>).map(([k, v]) => ({ name: k, ...v }));
  const row = (rows as Array<Record<string, unknown>>).find((r) => r.name === name || r.repo === name || r.folder === name);
  const lang = row?.language as LanguageFamily | undefined;
  return lang && LANGUAGES.includes(lang) ? lang : undefined;
}

function hash(s: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(16);
}

/** Protocol R as a Markdown table: per system, language and kind. */
export function renderR(R: Record<string, Record<string, unknown>>): string {
  const rows = ['| system | language | kind | precision | coverage | abstention | n | no truth (shown) |', '| --- | --- | --- | --- | --- | --- | --- | --- |'];
  // A ratio with nothing to count (no "defines" shown, no repository definition) prints as –.
  const f = (x: number, of: number) => (of ? x.toFixed(3) : '–');
  const row = (sys: string, lang: string, kind: string, m: RMetrics) => rows.push(`| ${sys} | ${lang} | ${kind} | ${f(m.precision, m.shown)} | ${f(m.coverage, m.repo)} | ${f(m.abstention, m.no_repo_def)} | ${m.n} | ${m.no_truth ? `${m.no_truth} (${m.no_truth_shown})` : ''} |`);
  for (const [sys, byLang] of Object.entries(R)) {
    for (const [lang, v] of Object.entries(byLang)) {
      const m = v as RMetrics & { by_kind?: Record<string, RMetrics> };
      row(sys, lang, 'all', m);
      for (const [k, km] of Object.entries(m.by_kind ?? {})) if (km.n) row(sys, lang, k, km);
    }
  }
  const misses: string[] = [];
  for (const [sys, byLang] of Object.entries(R)) {
    for (const [lang, v] of Object.entries(byLang)) {
      const m = (v as { misses?: Record<string, number> }).misses;
      if (m) misses.push(`- ${sys} ${lang}: ${Object.entries(m).map(([k, n]) => `${k} ${n}`).join(', ') || 'none'}`);
    }
  }
  return `\n## Protocol R (resolution)\n\n${rows.join('\n')}\n\nMisses by kind and answer (a repository definition not shown: candidates, external, null; a wrong or needless "defines": wrong, shown-CLASS):\n\n${misses.join('\n')}\n`;
}
