// Per-chunk embedding latency on ONE core (onnxruntime-node, intra/inter-op threads = 1), batch 1,
// 200-token chunk, plus the median time to tokenise a chunk of about that size, and model file sizes.
// Usage: node training/measure-latency.mjs MODEL_DIR [--tokens 200] [--runs 300]
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import ort from './ort.mjs';

const require = createRequire(path.join(process.cwd(), 'package.json'));
const { Tokenizer } = require('@huggingface/tokenizers');

const args = process.argv.slice(2);
const opt = (name, dflt) => { const i = args.indexOf(name); if (i < 0) return dflt; const v = args[i + 1]; args.splice(i, 2); return v; };
const tokens = Number(opt('--tokens', '200'));
const runs = Number(opt('--runs', '300'));
const dir = args[0];
if (!dir) { console.error('usage: node training/measure-latency.mjs MODEL_DIR [--tokens 200] [--runs 300]'); process.exit(2); }

const onnxPath = fs.existsSync(path.join(dir, 'model.onnx')) ? path.join(dir, 'model.onnx') : path.join(dir, 'onnx', 'model.onnx');
const session = await ort.InferenceSession.create(onnxPath, { intraOpNumThreads: 1, interOpNumThreads: 1, executionMode: 'sequential', graphOptimizationLevel: 'all' });
const tokenizer = new Tokenizer(JSON.parse(fs.readFileSync(path.join(dir, 'tokenizer.json'), 'utf8')), {});

// A real chunk of code (this file), repeated until it has enough tokens.
let text = fs.readFileSync(new URL(import.meta.url), 'utf8');
while (tokenizer.encode(text, { add_special_tokens: false }).ids.length < tokens) text += '\n' + text;
const ids = tokenizer.encode(text, { add_special_tokens: false }).ids.slice(0, tokens);
// tokenisation of a chunk of about `tokens` tokens (whole lines), as the product does per chunk
const lines = text.split('\n');
let chunk = '';
for (const l of lines) { if (tokenizer.encode(chunk + l + '\n', { add_special_tokens: false }).ids.length > tokens) break; chunk += l + '\n'; }
for (let i = 0; i < 30; i++) tokenizer.encode(chunk, { add_special_tokens: false });
const tt = [];
for (let i = 0; i < runs; i++) { const s = performance.now(); tokenizer.encode(chunk, { add_special_tokens: false }); tt.push(performance.now() - s); }
tt.sort((a, b) => a - b);
const tokenizeMs = tt[Math.floor(tt.length / 2)];
const chunkTokens = tokenizer.encode(chunk, { add_special_tokens: false }).ids.length;
const feeds = {
  input_ids: new ort.Tensor('int64', BigInt64Array.from(ids.map(BigInt)), [1, ids.length]),
  attention_mask: new ort.Tensor('int64', new BigInt64Array(ids.length).fill(1n), [1, ids.length]),
};
for (let i = 0; i < 30; i++) await session.run(feeds);
const times = [];
for (let i = 0; i < runs; i++) { const s = performance.now(); await session.run(feeds); times.push(performance.now() - s); }
times.sort((a, b) => a - b);
const q = (p) => times[Math.min(times.length - 1, Math.floor(p * times.length))].toFixed(3);
const sizes = Object.fromEntries(fs.readdirSync(dir).filter((f) => fs.statSync(path.join(dir, f)).isFile()).map((f) => [f, fs.statSync(path.join(dir, f)).size]));
console.log(JSON.stringify({ model: onnxPath, tokens: ids.length, runs, median_ms: Number(q(0.5)), p10_ms: Number(q(0.1)), p90_ms: Number(q(0.9)),
  tokenize_median_ms: Number(tokenizeMs.toFixed(3)), tokenize_chunk_tokens: chunkTokens, outputs: session.outputNames, bytes: sizes }, null, 1));
