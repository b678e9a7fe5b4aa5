import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { Tokenizer } from '@huggingface/tokenizers';
import { OnnxEmbedder } from '../../engine/src/embed';

// The shipped code model (models/reporecall-code, built by `npm run train-model`), loaded the way
// the product loads it: OnnxEmbedder on onnxruntime-node, tokenizer.json through @huggingface/tokenizers.
const MODEL_DIR = path.resolve(__dirname, '../../../models/reporecall-code');

const FUNCTION = `export function computeInvoiceTotal(items: LineItem[], taxRate: number): number {
  let subtotal = 0;
  for (const item of items) subtotal += item.unitPrice * item.quantity;
  return Math.round(subtotal * (1 + taxRate) * 100) / 100;
}`;
const DOC_COMMENT = `/**
 * Adds up the price of every line item on an invoice and applies the tax rate,
 * rounded to cents.
 */`;
const CALL_SITES = [
  `const total = computeInvoiceTotal(order.items, region.taxRate);
if (total > customer.creditLimit) throw new CreditLimitError(customer.id, total);`,
  'res.json({ invoiceId: invoice.id, total: computeInvoiceTotal(invoice.items, 0.2) });',
];
const UNRELATED = [
  `function parseCsvLine(line: string): string[] {
  const cells: string[] = [];
  let current = '';
  let quoted = false;
  for (const ch of line) {
    if (ch === '"') quoted = !quoted;
    else if (ch === ',' && !quoted) { cells.push(current); current = ''; }
    else current += ch;
  }
  cells.push(current);
  return cells;
}`,
  `export class RetryingSocket {
  private attempts = 0;
  constructor(private readonly url: string, private readonly maxAttempts = 5) {}
  connect(): WebSocket {
    const ws = new WebSocket(this.url);
    ws.onclose = () => { if (++this.attempts < this.maxAttempts) setTimeout(() => this.connect(), 1000); };
    return ws;
  }
}`,
  `def resize_image(path, width, height):
    with Image.open(path) as img:
        img.thumbnail((width, height))
        img.save(path.replace(".png", "_small.png"))`,
  `logger.info(\`server listening on port \${port}\`);
process.on('SIGTERM', () => server.close(() => process.exit(0)));`,
];

function cosine(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}

describe('shipped code embedding model (models/reporecall-code)', function () {
  this.timeout(60_000);
  let embedder: OnnxEmbedder;

  before(async function () {
    for (const f of ['model.onnx', 'tokenizer.json', 'config.json', 'MODEL_CARD.md']) {
      assert.ok(fs.existsSync(path.join(MODEL_DIR, f)), `${f} is missing from ${MODEL_DIR}; run npm run train-model`);
    }
    embedder = await OnnxEmbedder.load(MODEL_DIR);
  });

  after(async () => {
    await embedder?.dispose();
  });

  it('fits the shipping budget (files <= 20 MB) and gives unit vectors of the configured width', async () => {
    const bytes = ['model.onnx', 'tokenizer.json'].reduce((s, f) => s + fs.statSync(path.join(MODEL_DIR, f)).size, 0);
    assert.ok(bytes <= 20 * 1024 * 1024, `model files take ${bytes} bytes`);
    const config = JSON.parse(fs.readFileSync(path.join(MODEL_DIR, 'config.json'), 'utf8')) as { hidden_size: number };
    const [v] = await embedder.embed([FUNCTION]);
    assert.strictEqual(v.length, config.hidden_size);
    assert.ok(Math.abs(Math.hypot(...v) - 1) < 1e-4);
  });

  it('splits camelCase, snake_case and acronyms into case-insensitive sub-tokens', () => {
    const json = JSON.parse(fs.readFileSync(path.join(MODEL_DIR, 'tokenizer.json'), 'utf8')) as object;
    const tokenizer = new Tokenizer(json, {});
    const ids = (text: string) => tokenizer.encode(text, { add_special_tokens: false }).ids;
    assert.deepStrictEqual(ids('parseHTTPResponse'), ids('parse http response'));
    assert.deepStrictEqual(ids('parse_http_response'), ids('parse _ http _ response'));
    assert.deepStrictEqual(ids('MAX_RETRY_COUNT'), ids('max_retry_count'));
    assert.notDeepStrictEqual(ids('readFile'), ids('writeFile'));
  });

  it('ranks a function\'s call sites and its doc comment above unrelated code', async () => {
    // Queries go through the model's query side and candidates through its document side, as in the
    // product (the two are the same for a symmetric model).
    const texts = [FUNCTION, DOC_COMMENT, ...CALL_SITES, ...UNRELATED];
    const [fn, doc, ...rest] = await embedder.embed(texts);
    const [fnQ, docQ, ...restQ] = await embedder.embedQueries(texts);
    const calls = rest.slice(0, CALL_SITES.length);
    const callsQ = restQ.slice(0, CALL_SITES.length);
    const unrelated = rest.slice(CALL_SITES.length);
    const show = (xs: number[]) => xs.map((x) => x.toFixed(3)).join(', ');
    // Seen from the function: each of its call sites and its doc comment beat every piece of unrelated code
    // (one of which is another loop-shaped function, the hard case for a bag-of-sub-tokens model).
    const fromFn = unrelated.map((u) => cosine(fnQ, u));
    for (const [i, c] of calls.entries()) {
      assert.ok(cosine(fnQ, c) > Math.max(...fromFn), `call site ${i}: ${cosine(fnQ, c).toFixed(3)}, unrelated ${show(fromFn)}`);
    }
    assert.ok(cosine(fnQ, doc) > Math.max(...fromFn), `doc comment ${cosine(fnQ, doc).toFixed(3)}, unrelated ${show(fromFn)}`);
    // Seen from a call site (the code around the cursor), the called function beats all unrelated code.
    for (const [i, c] of callsQ.entries()) {
      const others = unrelated.map((u) => cosine(c, u));
      assert.ok(cosine(c, fn) > Math.max(...others), `call site ${i}: function ${cosine(c, fn).toFixed(3)}, unrelated ${show(others)}`);
    }
    // Seen from the doc comment, the function is the nearest piece of code.
    const fromDoc = [fn, ...unrelated].map((v) => cosine(docQ, v));
    assert.strictEqual(fromDoc.indexOf(Math.max(...fromDoc)), 0, `doc comment scores ${show(fromDoc)}`);
  });
});
