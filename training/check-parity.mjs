// Checks that Node (@huggingface/tokenizers + onnxruntime-node) reproduces what the trainer computed
// in torch: same token ids, same sentence_embedding (within int8-free float tolerance).
// Usage: node training/check-parity.mjs MODEL_DIR [PARITY_JSON]   (default: the trainer's cache copy)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import ort from './ort.mjs';

const require = createRequire(path.join(process.cwd(), 'package.json'));
const { Tokenizer } = require('@huggingface/tokenizers');
const dir = process.argv[2] || 'models/reporecall-code';
const cache = process.env.REPORECALL_TRAIN_CACHE || path.join(os.homedir(), '.cache', 'reporecall-train');
const sample = JSON.parse(fs.readFileSync(process.argv[3] || path.join(cache, 'parity-sample.json'), 'utf8'));
const tokenizer = new Tokenizer(JSON.parse(fs.readFileSync(path.join(dir, 'tokenizer.json'), 'utf8')), {});
const session = await ort.InferenceSession.create(path.join(dir, 'model.onnx'));
let worst = 0;
for (const [i, text] of sample.texts.entries()) {
  const ids = tokenizer.encode(text, { add_special_tokens: false }).ids;
  if (JSON.stringify(ids) !== JSON.stringify(sample.ids[i])) {
    console.error(`token ids differ for sample ${i}:\n node   ${ids}\n python ${sample.ids[i]}`);
    process.exit(1);
  }
  const out = await session.run({
    input_ids: new ort.Tensor('int64', BigInt64Array.from(ids.map(BigInt)), [1, ids.length]),
    attention_mask: new ort.Tensor('int64', new BigInt64Array(ids.length).fill(1n), [1, ids.length]),
  });
  const v = out.sentence_embedding.data;
  for (let d = 0; d < v.length; d++) worst = Math.max(worst, Math.abs(v[d] - sample.sentence_embedding[i][d]));
}
if (worst > 1e-4) { console.error(`embeddings differ: max |node - torch| = ${worst}`); process.exit(1); }
console.log(`parity ok: ${sample.texts.length} samples, identical token ids, max |node - torch| = ${worst.toExponential(2)}`);
