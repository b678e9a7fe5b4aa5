// Text -> unit vector with any ONNX encoder (transformer or static) on onnxruntime-node's CPU
// provider. The graph's inputs and outputs are inspected, so sentence-transformers exports, plain
// BERT-style exports and the project's static models all load the same way. onnxruntime-node is
// loaded lazily by onnxRuntime.ts (only types are imported here): a platform without its native
// binding must still be able to open the engine without the dense signal.
import type * as Ort from 'onnxruntime-node';
import { computeModelId, ModelLoadError, readModelFiles, type PoolingMode } from './modelFiles';
import { loadOnnxRuntime, type OnnxRuntime } from './onnxRuntime';
import { l2Normalise, poolTokens } from './pooling';
import { TextTokenizer, type TokenizedText } from './textTokenizer';

export interface EmbedderOptions {
  /** onnxruntime intra-op threads (default 1: the engine runs beside the editor, keep it light). */
  threads?: number;
  /** Texts are cut to this many tokens, special tokens included (default 256). */
  maxTokens?: number;
  /** Texts per inference call; texts are grouped by token count so padding stays small (default 16). */
  batchSize?: number;
  /** Always tokenize with @huggingface/tokenizers, never the lean WordPiece path (default false; parity tests and memory comparisons). */
  libraryTokenizer?: boolean;
  /**
   * The onnxruntime-node module to run on (default: loadOnnxRuntime(), which throws
   * OnnxRuntimeUnavailableError on a platform without the native binding).
   */
  runtime?: OnnxRuntime;
}

/** Graph input names we know how to feed; anything else makes load fail with a clear message. */
const KNOWN_INPUTS = new Set(['input_ids', 'attention_mask', 'token_type_ids', 'position_ids']);

type IntTensorType = 'int64' | 'int32';

/** A loaded graph and what it takes to feed and read it. */
interface LoadedGraph {
  ort: OnnxRuntime;
  session: Ort.InferenceSession;
  tokenizer: TextTokenizer;
  inputTypes: ReadonlyMap<string, IntTensorType>;
  /** Output read: `sentence_embedding` when the graph has it, else a [batch, seq, dim] token output. */
  outputName: string;
  /** Set when the output holds token vectors that still need pooling. */
  pooling: PoolingMode | undefined;
  padId: number;
  batchSize: number;
  /**
   * `query_embedding` when the graph has it next to `sentence_embedding`: an asymmetric model
   * embeds what the user is writing with its own weights, pointing at what follows it.
   */
  queryOutputName: string | undefined;
  /** sha256 (hex, 32 chars) of model.onnx + tokenizer.json + pooling mode; keys cached vectors. */
  modelId: string;
}

export class OnnxEmbedder {
  /**
   * Serialises inference (concurrent runs would each claim `threads` cores), one batch at a time,
   * queries first: a keystroke's query vector waits for the batch in progress, not for every
   * batch of a file update or of an indexing run queued before it (0.6-1.0 s during a rebuild).
   */
  private running = false;
  private readonly waitingQueries: Array<() => void> = [];
  private readonly waitingDocuments: Array<() => void> = [];
  /** Calls not finished yet (dispose waits for them). */
  private inFlight = new Set<Promise<unknown>>();
  private disposed = false;

  /** sha256 (hex, 32 chars) of model.onnx + tokenizer.json + pooling mode; keys cached vectors. */
  readonly modelId: string;

  private constructor(
    private readonly graph: LoadedGraph,
    /** Width of the vectors `embed` returns. */
    readonly dim: number,
  ) {
    this.modelId = graph.modelId;
  }

  static async load(modelDir: string, opts: EmbedderOptions = {}): Promise<OnnxEmbedder> {
    const threads = opts.threads ?? 1;
    const maxTokens = opts.maxTokens ?? 256;
    const batchSize = opts.batchSize ?? 16;
    for (const [name, v] of [['threads', threads], ['maxTokens', maxTokens], ['batchSize', batchSize]] as const) {
      if (!Number.isInteger(v) || v < 1) throw new RangeError(`embedder option ${name} must be a positive integer, got ${v}`);
    }
    const ort = opts.runtime ?? loadOnnxRuntime();
    const files = readModelFiles(modelDir);
    const tokenizer = new TextTokenizer(files.tokenizerJson, files.tokenizerConfig, files.tokenizerPath, maxTokens, opts.libraryTokenizer === true);

    let session: Ort.InferenceSession;
    try {
      session = await ort.InferenceSession.create(files.modelPath, {
        executionProviders: ['cpu'],
        intraOpNumThreads: threads,
        interOpNumThreads: 1,
        graphOptimizationLevel: 'all',
      });
    } catch (err) {
      throw new ModelLoadError(`onnxruntime could not load ${files.modelPath} (corrupt or unsupported model?): ${(err as Error).message}`);
    }

    try {
      const inputTypes = new Map<string, IntTensorType>();
      for (const meta of session.inputMetadata) {
        if (!KNOWN_INPUTS.has(meta.name)) {
          throw new ModelLoadError(`${files.modelPath} has input "${meta.name}"; supported inputs are ${[...KNOWN_INPUTS].join(', ')}`);
        }
        const type = meta.isTensor ? meta.type : undefined;
        if (type !== 'int64' && type !== 'int32') {
          throw new ModelLoadError(`${files.modelPath} input "${meta.name}" has type ${type}; expected int64 or int32`);
        }
        inputTypes.set(meta.name, type);
      }
      if (!inputTypes.has('input_ids')) throw new ModelLoadError(`${files.modelPath} has no input_ids input`);

      const outputs = session.outputNames;
      let outputName: string;
      let pooling: PoolingMode | undefined;
      if (outputs.includes('sentence_embedding')) {
        outputName = 'sentence_embedding';
      } else {
        const tokenOutput = ['last_hidden_state', 'token_embeddings'].find((n) => outputs.includes(n)) ?? outputs[0];
        if (!tokenOutput) throw new ModelLoadError(`${files.modelPath} has no outputs`);
        outputName = tokenOutput;
        pooling = files.pooling;
      }

      const modelId = await computeModelId(files);
      const queryOutputName = outputName === 'sentence_embedding' && outputs.includes('query_embedding') ? 'query_embedding' : undefined;
      const graph: LoadedGraph = { ort, session, tokenizer, inputTypes, outputName, pooling, padId: files.padId, batchSize, queryOutputName, modelId };
      const embedder = new OnnxEmbedder(graph, 0);
      // One probe run learns the output width and proves the graph actually runs with our feeds.
      let probe: Float32Array[];
      try {
        probe = await embedder.runBatch([tokenizer.encode('probe')]);
      } catch (err) {
        throw new ModelLoadError(`${files.modelPath} failed a test inference: ${(err as Error).message}`);
      }
      const dim = probe[0].length;
      if (!dim) throw new ModelLoadError(`${files.modelPath} produced an empty vector for a test input`);
      if (queryOutputName) {
        const q = await embedder.runBatch([tokenizer.encode('probe')], queryOutputName).catch((err: Error) => {
          throw new ModelLoadError(`${files.modelPath} failed a test inference of query_embedding: ${err.message}`);
        });
        if (q[0].length !== dim) throw new ModelLoadError(`${files.modelPath}: query_embedding has width ${q[0].length}, sentence_embedding ${dim}`);
      }
      return new OnnxEmbedder(graph, dim);
    } catch (err) {
      await session.release().catch(() => undefined);
      throw err;
    }
  }

  /**
   * Embeds texts; returns one L2-normalised vector per text, in input order. Texts without any
   * token (e.g. empty) give the zero vector. Rejects with the signal's reason when aborted
   * (checked between batches).
   */
  embed(texts: string[], signal?: AbortSignal): Promise<Float32Array[]> {
    return this.enqueue(texts, this.graph.outputName, signal);
  }

  /**
   * Embeds what the user is writing (a search query), to be compared with `embed`'s document
   * vectors. The same as `embed` unless the model has a separate query output.
   */
  embedQueries(texts: string[], signal?: AbortSignal): Promise<Float32Array[]> {
    return this.enqueue(texts, this.graph.queryOutputName ?? this.graph.outputName, signal, true);
  }

  /** Whether queries are embedded by their own output (an asymmetric model). */
  get asymmetric(): boolean {
    return this.graph.queryOutputName !== undefined;
  }

  private enqueue(texts: string[], output: string, signal?: AbortSignal, query = false): Promise<Float32Array[]> {
    const run = this.embedNow(texts, output, signal, query);
    const tracked = run.catch(() => undefined);
    this.inFlight.add(tracked);
    void tracked.then(() => this.inFlight.delete(tracked));
    return run;
  }

  /** Waits for the model (queries ahead of documents); returns the release. */
  private async turn(query: boolean): Promise<() => void> {
    if (this.running) await new Promise<void>((resolve) => (query ? this.waitingQueries : this.waitingDocuments).push(resolve));
    this.running = true; // handed over by the release below, or taken now
    return () => {
      const next = this.waitingQueries.shift() ?? this.waitingDocuments.shift();
      if (next) next();
      else this.running = false;
    };
  }

  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    while (this.inFlight.size) await Promise.all([...this.inFlight]);
    await this.graph.session.release();
  }

  private async embedNow(texts: string[], output: string, signal?: AbortSignal, query = false): Promise<Float32Array[]> {
    if (this.disposed) throw new Error('OnnxEmbedder.embed called after dispose()');
    signal?.throwIfAborted();
    const encoded = texts.map((t) => this.graph.tokenizer.encode(t));
    // Group by length so a batch pads to similar lengths; stable order keeps results deterministic.
    const order = encoded.map((_, i) => i).sort((a, b) => encoded[a].ids.length - encoded[b].ids.length || a - b);
    const result: Float32Array[] = new Array(texts.length);
    for (let start = 0; start < order.length; start += this.graph.batchSize) {
      signal?.throwIfAborted();
      const idx = order.slice(start, start + this.graph.batchSize);
      const release = await this.turn(query);
      let vectors: Float32Array[];
      try {
        signal?.throwIfAborted();
        vectors = await this.runBatch(idx.map((i) => encoded[i]), output);
      } finally {
        release();
      }
      idx.forEach((i, k) => (result[i] = vectors[k]));
    }
    return result;
  }

  private async runBatch(batch: TokenizedText[], output = this.graph.outputName): Promise<Float32Array[]> {
    // At least one position, so a token-less text still makes a valid (fully masked) row.
    const seq = Math.max(1, ...batch.map((t) => t.ids.length));
    const n = batch.length;
    const ids = new Array<number>(n * seq).fill(this.graph.padId);
    const mask = new Array<number>(n * seq).fill(0);
    const typeIds = new Array<number>(n * seq).fill(0);
    batch.forEach((t, b) => {
      for (let j = 0; j < t.ids.length; j++) {
        ids[b * seq + j] = t.ids[j];
        mask[b * seq + j] = 1;
        typeIds[b * seq + j] = t.typeIds?.[j] ?? 0;
      }
    });
    const columns: Record<string, number[]> = {
      input_ids: ids,
      attention_mask: mask,
      token_type_ids: typeIds,
      position_ids: Array.from({ length: n * seq }, (_, k) => k % seq),
    };
    const feeds: Record<string, Ort.Tensor> = {};
    for (const [name, type] of this.graph.inputTypes) {
      const values = columns[name];
      const data = type === 'int64' ? BigInt64Array.from(values, (v) => BigInt(v)) : Int32Array.from(values);
      feeds[name] = new this.graph.ort.Tensor(type, data, [n, seq]);
    }
    const out = (await this.graph.session.run(feeds, [output]))[output];
    try {
      const data = out.data as Float32Array;
      if (out.type !== 'float32') throw new Error(`output ${output} has type ${out.type}; expected float32`);
      const vectors: Float32Array[] = [];
      if (this.graph.pooling === undefined) {
        if (out.dims.length !== 2) throw new Error(`output ${output} has shape [${out.dims}]; expected [batch, dim]`);
        const dim = out.dims[1];
        for (let b = 0; b < n; b++) vectors.push(l2Normalise(data.slice(b * dim, (b + 1) * dim)));
      } else {
        if (out.dims.length !== 3) throw new Error(`output ${output} has shape [${out.dims}]; expected [batch, seq, dim]`);
        const dim = out.dims[2];
        for (let b = 0; b < n; b++) vectors.push(l2Normalise(poolTokens(data, seq, dim, b, mask, this.graph.pooling)));
      }
      return vectors;
    } finally {
      out.dispose();
    }
  }
}
