// `node training/text-prior.mjs TOKENIZER_DIR REFERENCE_MODEL_DIR OUT.f32`
// For each id of our code tokenizer, the vector that the reference text model (USE-Lite, distilled to
// a static table by scripts/build-reference-model.mjs) gives the piece's text: the mean of its
// SentencePiece rows, unnormalised, so USE-Lite's SIF weights survive. train.py --text-prior reads it:
// a frozen part of the token table that carries what the pieces mean in English (fetch ~ request ~
// download), which co-occurrence in a few minutes of code training does not teach.
import * as fs from 'fs';
import * as path from 'path';
import ort from './ort.mjs';
import { Tokenizer } from '@huggingface/tokenizers';

const [tokDir, refDir, out] = process.argv.slice(2);
if (!out) {
  console.error('usage: node training/text-prior.mjs TOKENIZER_DIR REFERENCE_MODEL_DIR OUT.f32');
  process.exit(2);
}
const ours = JSON.parse(fs.readFileSync(path.join(tokDir, 'tokenizer.json'), 'utf8'));
// One spelling per id: the lower-case one (the vocabulary lists lower / Capitalised / UPPER forms).
const pieceOf = new Map();
for (const [piece, id] of Object.entries(ours.model.vocab)) {
  const text = piece.replace(/^##/, '');
  const prev = pieceOf.get(id);
  if (prev === undefined || (text === text.toLowerCase() && prev !== prev.toLowerCase())) pieceOf.set(id, text);
}
const ids = [...pieceOf.keys()];
const rows = Math.max(...ids) + 1;
const refTok = new Tokenizer(JSON.parse(fs.readFileSync(path.join(refDir, 'tokenizer.json'), 'utf8')), {});
const session = await ort.InferenceSession.create(path.join(refDir, 'onnx', 'model.onnx'), { intraOpNumThreads: 1 });
const probe = await embed(['probe']);
const dim = probe[0].length;
const table = new Float32Array(rows * dim);
const specials = new Set(['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]']);
const wanted = ids.filter((id) => !specials.has(pieceOf.get(id)) && pieceOf.get(id).trim() !== '');
const t0 = Date.now();
for (let i = 0; i < wanted.length; i += 256) {
  const batch = wanted.slice(i, i + 256);
  const vecs = await embed(batch.map((id) => pieceOf.get(id)));
  batch.forEach((id, k) => table.set(vecs[k], id * dim));
}
fs.writeFileSync(out, Buffer.from(table.buffer));
console.log(`text prior: ${wanted.length} of ${rows} ids, ${dim} dims, ${Date.now() - t0} ms -> ${out}`);

/** Unnormalised mean of the reference model's token rows (its `last_hidden_state`, already masked). */
async function embed(texts) {
  const enc = texts.map((t) => refTok.encode(t, { add_special_tokens: false }).ids);
  const seq = Math.max(1, ...enc.map((e) => e.length));
  const idsT = new BigInt64Array(texts.length * seq);
  const mask = new BigInt64Array(texts.length * seq);
  enc.forEach((e, b) => e.forEach((id, j) => { idsT[b * seq + j] = BigInt(id); mask[b * seq + j] = 1n; }));
  const res = await session.run({
    input_ids: new ort.Tensor('int64', idsT, [texts.length, seq]),
    attention_mask: new ort.Tensor('int64', mask, [texts.length, seq]),
  }, ['last_hidden_state']);
  const h = res.last_hidden_state;
  const d = h.dims[2];
  return enc.map((e, b) => {
    const v = new Float32Array(d);
    for (let j = 0; j < e.length; j++) for (let k = 0; k < d; k++) v[k] += h.data[(b * seq + j) * d + k] / e.length;
    return v;
  });
}
