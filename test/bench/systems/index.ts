// The systems the bench knows, by name.
import type { BenchSystem } from './system';
import { Bm25System } from './bm25';
import { JaccardSystem } from './jaccard';
import * as path from 'path';
import { OnnxEmbedder } from '../../../engine/src/embed';
import { EmbeddingCache, FragmentSystem, type Variant } from './fragments';
import { EngineSystem } from './engine';
import { ABLATION_WEIGHTS, CORE_SIGNALS, CORE_WEIGHTS, STAGES, type FusionWeights } from '../../../engine/src/retrieve/weights';
import { TabbySystem } from './anchors/tabby';
import { ContinueSystem } from './anchors/continue';
import { CopilotSystem } from './anchors/copilot';
import { defaultModelDir } from '../../../engine/src/modelPaths';
import type { HypothesisProvider } from '../hyde';

const REPO_ROOT = path.resolve(__dirname, '../../../..');
const DEFAULT_REFERENCE_MODEL = path.join(REPO_ROOT, 'models/reference-use-lite');

/** The weight a stage gets when an ablation turns it on: declared by each signal (engine/src/retrieve/registry.ts). */
export const STAGE_ON: Partial<FusionWeights> = ABLATION_WEIGHTS;

/**
 * `--ablation`: the engine of the core issue (`core`), each later stage added to it alone
 * (`core+S`), each core signal removed from it (`core-S`), and the chosen default (`engine`),
 * all from one index and one task loop.
 */
export function ablationVariants(base: Partial<FusionWeights>): Record<string, Variant> {
  // Core: the four core signals with the packing the stages were measured against (not compact).
  const core: Variant = { ...CORE_WEIGHTS, ...base, compact: false };
  // The engine exactly as the core issue left it: its weights, whole chunks as context.
  const issue2: Variant = { ...CORE_WEIGHTS, bm25: 1, recent: 0.7, dense: 0.8, symbol: 0.5, rrfK: 30, excerpt: 'head', maxLinesPerHit: 100_000, compact: false };
  const out: Record<string, Variant> = { 'engine:issue2': issue2, 'engine:core': core };
  for (const [stage, w] of Object.entries(STAGE_ON)) out[`engine:core+${stage}`] = { ...core, [stage]: w };
  for (const stage of CORE_SIGNALS) out[`engine:core-${stage}`] = { ...core, [stage]: 0 };
  // Packing of the retrieved text (protocol C and the product's prompts; A/B are unaffected).
  out['engine:core,lines40'] = { ...core, maxLinesPerHit: 40 };
  out['engine:core,lines80'] = { ...core, maxLinesPerHit: 80 };
  out['engine:core,compact'] = { ...core, compact: true };
  // The chosen default (`engine`) with each of its parts switched off in turn.
  out['engine:default-normalized'] = { ...base, normalized: 0 };
  out['engine:default-compact'] = { ...base, compact: false };
  out['engine:core,perfile2'] = { ...core, maxPerFile: 2 };
  out['engine:core,novelty0.5'] = { ...core, novelty: 0.5 };
  out['engine:core,novelty0.8'] = { ...core, novelty: 0.8 };
  return out;
}

/** Weight overrides from the command line: `--w-bm25 0.5 --w-dense 1`. */
export function weightArgs(argv: string[]): Record<string, number> {
  // `--variant name:stage=w,stage=w` adds ad-hoc variants (tuning); handled in createSystems.
  const out: Record<string, number> = {};
  argv.forEach((a, i) => { if (a.startsWith('--w-')) out[a.slice(4)] = Number(argv[i + 1]); });
  return out;
}

export interface SystemFactoryOptions {
  /** The project's model directory for `dense`/`engine` (default: the shipped model). */
  modelDir?: string;
  /** The USE-Lite reference model (for `dense-ref` / `engine-ref`). */
  referenceModelDir?: string;
  flags: Set<string>;
  argv: string[];
  /** Source of hypothetical continuations (--hyde): adds the hyde rows to the engine. */
  hypothesis?: HypothesisProvider;
}

/**
 * With a hypothesis source, the rows that read it: the default and the core engine plus `hyde`,
 * once per weight in --hyde-weights (default 1; with several, each row is suffixed `,wX`). Named
 * after the source, so an oracle row can never be mistaken for a system.
 */
function hydeVariants(label: string, argv: string[], base: Partial<FusionWeights>, ablation: boolean): Record<string, Variant> {
  const i = argv.indexOf('--hyde-weights');
  const ws = (i >= 0 ? argv[i + 1] : '1').split(',').map(Number).filter((w) => w > 0);
  const out: Record<string, Variant> = {};
  ws.forEach((w) => {
    const tag = `hyde(${label})${ws.length === 1 ? '' : `,w${w}`}`;
    out[`engine+${tag}`] = { ...base, hyde: w };
    if (ablation) out[`engine:core+${tag}`] = { ...CORE_WEIGHTS, ...base, hyde: w };
  });
  return out;
}

/**
 * Ad-hoc variants (tuning): `--variant name:stage=w,stage=w` for `engine`, `--ref-variant` for
 * `engine-ref` (e.g. the reference model with fusion weights fitted for it), reported as `system:name`.
 */
function variantArgs(argv: string[], flag: string, system: string, base: Partial<FusionWeights>): Record<string, Variant> {
  const out: Record<string, Variant> = {};
  for (const spec of argv.filter((_, i) => argv[i - 1] === flag)) {
    const [vname, body] = spec.split(':');
    const v: Record<string, number | string> = {};
    for (const kv of (body ?? '').split(',').filter(Boolean)) { const [key, val] = kv.split('='); v[key] = Number.isNaN(Number(val)) ? val : Number(val); }
    out[`${system}:${vname}`] = { ...base, ...v };
  }
  return out;
}

/** `dense` / `dense-ref`: the dense list alone (every other stage and score term off, not left at its default). */
const DENSE_ONLY: Partial<FusionWeights> = { ...Object.fromEntries(STAGES.map((s) => [s, 0])), bm25Score: 0, recentScore: 0, denseScore: 0, dense: 1 };

/**
 * Experiment (`engine-combo`, protocols A and B only): two models' unit vectors concatenated as
 * [√m·ours, √(1−m)·reference], so one cosine is m·cos(ours) + (1−m)·cos(reference). Asks whether
 * our model carries anything the reference does not, with the fusion unchanged.
 */
class ConcatEmbedder {
  readonly dim: number;
  readonly modelId: string;
  constructor(private readonly a: OnnxEmbedder, private readonly b: OnnxEmbedder, private readonly mix: number) {
    this.dim = a.dim + b.dim;
    this.modelId = `${a.modelId}+${b.modelId}@${mix}`;
  }
  private join(x: Float32Array[], y: Float32Array[]): Float32Array[] {
    return x.map((u, i) => {
      const v = y[i];
      const out = new Float32Array(u.length + v.length);
      const nu = Math.hypot(...u) || 1;
      const nv = Math.hypot(...v) || 1;
      u.forEach((z, j) => { out[j] = (Math.sqrt(this.mix) * z) / nu; });
      v.forEach((z, j) => { out[u.length + j] = (Math.sqrt(1 - this.mix) * z) / nv; });
      return out;
    });
  }
  async embed(texts: string[]): Promise<Float32Array[]> { return this.join(await this.a.embed(texts), await this.b.embed(texts)); }
  async embedQueries(texts: string[]): Promise<Float32Array[]> { return this.join(await this.a.embedQueries(texts), await this.b.embedQueries(texts)); }
}

export const SYSTEM_NAMES = ['bm25', 'jaccard', 'tabby', 'continue', 'copilot', 'dense', 'engine', 'engine-nodense', 'dense-ref', 'engine-ref', 'engine-combo'];

export async function createSystems(names: string[], opts: SystemFactoryOptions): Promise<BenchSystem[]> {
  const out: BenchSystem[] = [];
  const caches = new Map<string, EmbeddingCache>();
  const embeddings = async (dir: string) => {
    let c = caches.get(dir);
    if (!c) caches.set(dir, (c = new EmbeddingCache(await OnnxEmbedder.load(dir, { threads: 1 }))));
    return c;
  };
  const overrides = weightArgs(opts.argv);
  const model = () => {
    const dir = opts.modelDir ?? defaultModelDir();
    if (!dir) throw new Error('no embedding model: build one (npm run model:reference) or pass --model DIR');
    return dir;
  };
  for (const n of names) {
    if (n === 'bm25') out.push(new Bm25System());
    else if (n === 'jaccard') out.push(new JaccardSystem());
    // The anchors' pipelines (anchors/*.ts, test/bench/README.md): tabby embeds with the shipped model.
    else if (n === 'tabby') out.push(new TabbySystem(await embeddings(model())));
    else if (n === 'continue') out.push(new ContinueSystem());
    else if (n === 'copilot') out.push(new CopilotSystem());
    else if (n === 'dense-ref') out.push(new FragmentSystem({ name: n, embeddings: await embeddings(opts.referenceModelDir ?? DEFAULT_REFERENCE_MODEL), weights: DENSE_ONLY }));
    else if (n === 'engine-ref') {
      const ref = opts.referenceModelDir ?? DEFAULT_REFERENCE_MODEL;
      const variants = variantArgs(opts.argv, '--ref-variant', n, overrides);
      out.push(new EngineSystem({ name: n, embeddings: await embeddings(ref), weights: overrides, variants: Object.keys(variants).length ? variants : undefined }, ref, { weights: overrides }));
    }
    else if (n === 'dense') out.push(new FragmentSystem({ name: n, embeddings: await embeddings(model()), weights: DENSE_ONLY }));
    else if (n === 'engine') {
      let variants = opts.flags.has('--ablation') ? ablationVariants(overrides) : undefined;
      const adHoc = variantArgs(opts.argv, '--variant', n, overrides);
      if (Object.keys(adHoc).length) variants = { ...variants, ...adHoc };
      if (opts.hypothesis) variants = { ...variants, ...hydeVariants(opts.hypothesis.label, opts.argv, overrides, opts.flags.has('--ablation')) };
      // `--model none`: no vectors (protocol E alone; the built-in source reads none).
      const dir = model(), weights = dir === 'none' ? { ...overrides, dense: 0 } : overrides;
      out.push(new EngineSystem({ name: n, embeddings: dir === 'none' ? undefined : await embeddings(dir), weights, variants, hypothesis: opts.hypothesis }, dir, { weights }, true));
    }
    else if (n === 'engine-combo') {
      const at = opts.argv.indexOf('--combo-mix');
      const mix = at >= 0 ? Number(opts.argv[at + 1]) : 0.5;
      const combo = new ConcatEmbedder(await OnnxEmbedder.load(model(), { threads: 1 }), await OnnxEmbedder.load(opts.referenceModelDir ?? DEFAULT_REFERENCE_MODEL, { threads: 1 }), mix);
      const variants = variantArgs(opts.argv, '--combo-variant', n, overrides);
      out.push(new FragmentSystem({ name: n, embeddings: new EmbeddingCache(combo), weights: overrides, variants: Object.keys(variants).length ? variants : undefined }));
    }
    else if (n === 'engine-nodense') out.push(new EngineSystem({ name: n, weights: { ...overrides, dense: 0 } }, 'none', { weights: { ...overrides, dense: 0 } }));
    else throw new Error(`unknown system '${n}' (known: ${SYSTEM_NAMES.join(', ')})`);
  }
  return out;
}
