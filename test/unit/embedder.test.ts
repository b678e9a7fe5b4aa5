import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { onnx } from 'onnx-proto';
import { OnnxEmbedder } from '../../engine/src/embed';
import { tempDir } from './tempDir';

// A tiny BERT-shaped model written with onnx-proto: WordPiece tokenizer with [CLS]/[SEP] template,
// graph = token table + type table, masked by attention_mask, output `last_hidden_state` only, so
// the embedder's own pooling is what gets tested.
const SPECIALS = ['[PAD]', '[UNK]', '[CLS]', '[SEP]'];
const WORDS = ['parse', 'config', 'file', 'read', 'json', 'the', 'cat', 'sat', 'on', 'mat', 'load', 'save', 'user', 'name'];
const VOCAB = [...SPECIALS, ...WORDS];
const DIM = 8;

function table(rows: number, seed: number): Float32Array {
  const t = new Float32Array(rows * DIM);
  for (let i = 0; i < t.length; i++) {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    t[i] = seed / 2147483648 - 0.5;
  }
  return t;
}

// ONNX graph builders for the tiny test models below.
const TP = onnx.TensorProto;
const DT = TP.DataType;
const vi = (name: string, elemType: number, dims: Array<number | string>) =>
  onnx.ValueInfoProto.create({
    name,
    type: { tensorType: { elemType, shape: { dim: dims.map((d) => (typeof d === 'string' ? { dimParam: d } : { dimValue: d })) } } },
  });
const node = (opType: string, input: string[], output: string[], attribute: onnx.IAttributeProto[] = []) =>
  onnx.NodeProto.create({ opType, input, output, name: output[0], attribute });
const intAttr = (name: string, i: number) => onnx.AttributeProto.create({ name, type: onnx.AttributeProto.AttributeType.INT, i });
const raw = (a: Float32Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);

function writeTinyModel(dir: string, tokenTable: Float32Array, typeTable: Float32Array): void {
  const graph = onnx.GraphProto.create({
    name: 'tiny',
    initializer: [
      TP.create({ name: 'tok', dataType: DT.FLOAT, dims: [VOCAB.length, DIM], rawData: raw(tokenTable) }),
      TP.create({ name: 'typ', dataType: DT.FLOAT, dims: [2, DIM], rawData: raw(typeTable) }),
      TP.create({ name: 'axis2', dataType: DT.INT64, dims: [1], int64Data: [2] }),
    ],
    node: [
      node('Gather', ['tok', 'input_ids'], ['tok_rows'], [intAttr('axis', 0)]),
      node('Gather', ['typ', 'token_type_ids'], ['typ_rows'], [intAttr('axis', 0)]),
      node('Add', ['tok_rows', 'typ_rows'], ['rows']),
      node('Cast', ['attention_mask'], ['mask_f'], [intAttr('to', DT.FLOAT)]),
      node('Unsqueeze', ['mask_f', 'axis2'], ['mask_3d']),
      node('Mul', ['rows', 'mask_3d'], ['last_hidden_state']),
    ],
    input: [
      vi('input_ids', DT.INT64, ['batch', 'seq']),
      vi('attention_mask', DT.INT64, ['batch', 'seq']),
      vi('token_type_ids', DT.INT64, ['batch', 'seq']),
    ],
    output: [vi('last_hidden_state', DT.FLOAT, ['batch', 'seq', DIM])],
  });
  const model = onnx.ModelProto.create({ irVersion: 8, opsetImport: [{ domain: '', version: 17 }], graph });
  fs.writeFileSync(path.join(dir, 'model.onnx'), onnx.ModelProto.encode(model).finish());
  writeTokenizer(dir);
}

function writeTokenizer(dir: string): void {
  const special = (t: string) => ({ SpecialToken: { id: t, type_id: 0 } });
  const tokenizer = {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: SPECIALS.map((content, id) => ({ id, content, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true })),
    normalizer: { type: 'BertNormalizer', clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: true },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: {
      type: 'TemplateProcessing',
      single: [special('[CLS]'), { Sequence: { id: 'A', type_id: 0 } }, special('[SEP]')],
      pair: [special('[CLS]'), { Sequence: { id: 'A', type_id: 0 } }, special('[SEP]'), { Sequence: { id: 'B', type_id: 1 } }, { SpecialToken: { id: '[SEP]', type_id: 1 } }],
      special_tokens: {
        '[CLS]': { id: '[CLS]', ids: [2], tokens: ['[CLS]'] },
        '[SEP]': { id: '[SEP]', ids: [3], tokens: ['[SEP]'] },
      },
    },
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: {
      type: 'WordPiece',
      unk_token: '[UNK]',
      continuing_subword_prefix: '##',
      max_input_chars_per_word: 100,
      vocab: Object.fromEntries(VOCAB.map((t, i) => [t, i])),
    },
  };
  fs.writeFileSync(path.join(dir, 'tokenizer.json'), JSON.stringify(tokenizer));
  fs.writeFileSync(path.join(dir, 'tokenizer_config.json'), JSON.stringify({ cls_token: '[CLS]', sep_token: '[SEP]', pad_token: '[PAD]', unk_token: '[UNK]' }));
}

/**
 * An asymmetric model: `sentence_embedding` sums the rows of one table under the mask and
 * `query_embedding` those of another (the embedder normalises, so a sum stands for the mean).
 */
function writeAsymmetricModel(dir: string, docTable: Float32Array, queryTable: Float32Array): void {
  const pooled = (table: string, out: string) => [
    node('Gather', [table, 'input_ids'], [`${table}_rows`], [intAttr('axis', 0)]),
    node('Mul', [`${table}_rows`, 'mask_3d'], [`${table}_masked`]),
    node('ReduceSum', [`${table}_masked`, 'axis1'], [out], [intAttr('keepdims', 0)]),
  ];
  const graph = onnx.GraphProto.create({
    name: 'tiny-asymmetric',
    initializer: [
      TP.create({ name: 'doc', dataType: DT.FLOAT, dims: [VOCAB.length, DIM], rawData: raw(docTable) }),
      TP.create({ name: 'query', dataType: DT.FLOAT, dims: [VOCAB.length, DIM], rawData: raw(queryTable) }),
      TP.create({ name: 'axis1', dataType: DT.INT64, dims: [1], int64Data: [1] }),
      TP.create({ name: 'axis2', dataType: DT.INT64, dims: [1], int64Data: [2] }),
    ],
    node: [
      node('Cast', ['attention_mask'], ['mask_f'], [intAttr('to', DT.FLOAT)]),
      node('Unsqueeze', ['mask_f', 'axis2'], ['mask_3d']),
      ...pooled('doc', 'sentence_embedding'),
      ...pooled('query', 'query_embedding'),
    ],
    input: [vi('input_ids', DT.INT64, ['batch', 'seq']), vi('attention_mask', DT.INT64, ['batch', 'seq'])],
    output: [vi('sentence_embedding', DT.FLOAT, ['batch', DIM]), vi('query_embedding', DT.FLOAT, ['batch', DIM])],
  });
  const model = onnx.ModelProto.create({ irVersion: 8, opsetImport: [{ domain: '', version: 17 }], graph });
  fs.writeFileSync(path.join(dir, 'model.onnx'), onnx.ModelProto.encode(model).finish());
  writeTokenizer(dir);
}

/** What the model should output: normalised mean (or CLS row) of token row + type-0 row. */
function expected(tokenTable: Float32Array, typeTable: Float32Array, tokens: string[]): Float32Array {
  const out = new Float32Array(DIM);
  for (const t of tokens) {
    const id = VOCAB.indexOf(t);
    for (let d = 0; d < DIM; d++) out[d] += (tokenTable[id * DIM + d] + typeTable[d]) / tokens.length;
  }
  const norm = Math.hypot(...out);
  return out.map((x) => x / norm);
}

function assertClose(a: ArrayLike<number>, b: ArrayLike<number>, tol = 1e-5): void {
  assert.strictEqual(a.length, b.length);
  for (let i = 0; i < a.length; i++) assert.ok(Math.abs(a[i] - b[i]) <= tol, `component ${i}: ${a[i]} vs ${b[i]}`);
}

describe('OnnxEmbedder', function () {
  this.timeout(60_000);
  const tokTable = table(VOCAB.length, 7);
  const typTable = table(2, 11);
  let dir: string;
  let embedder: OnnxEmbedder;

  before(async () => {
    dir = tempDir('rr-embed-');
    writeTinyModel(dir, tokTable, typTable);
    embedder = await OnnxEmbedder.load(dir, { batchSize: 2 });
  });
  after(async () => {
    await embedder?.dispose();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('loads a model, learns its width and identifies it by content hash', () => {
    assert.strictEqual(embedder.dim, DIM);
    assert.match(embedder.modelId, /^[0-9a-f]{32}$/);
  });

  it('embeds queries like documents when the model has no query output', async () => {
    assert.strictEqual(embedder.asymmetric, false);
    const [q] = await embedder.embedQueries(['Parse the config file']);
    const [d] = await embedder.embed(['Parse the config file']);
    assertClose(q, d, 0);
  });

  it('embeds queries through query_embedding and documents through sentence_embedding when the model has both', async () => {
    const asymDir = tempDir('rr-embed-asym-');
    const queryTable = table(VOCAB.length, 23);
    writeAsymmetricModel(asymDir, tokTable, queryTable);
    const asym = await OnnxEmbedder.load(asymDir);
    try {
      assert.strictEqual(asym.asymmetric, true);
      const zeroTypes = new Float32Array(DIM);
      const tokens = ['[CLS]', 'load', 'user', 'name', '[SEP]'];
      const [d1, d2] = await asym.embed(['load user name', 'save the file']);
      const [q1, q2] = await asym.embedQueries(['load user name', 'save the file']);
      assertClose(d1, expected(tokTable, zeroTypes, tokens));
      assertClose(q1, expected(queryTable, zeroTypes, tokens));
      assertClose(d2, expected(tokTable, zeroTypes, ['[CLS]', 'save', 'the', 'file', '[SEP]']));
      assertClose(q2, expected(queryTable, zeroTypes, ['[CLS]', 'save', 'the', 'file', '[SEP]']));
    } finally {
      await asym.dispose();
      fs.rmSync(asymDir, { recursive: true, force: true });
    }
  });

  it('mean-pools token vectors under the attention mask and L2-normalises', async () => {
    const [v] = await embedder.embed(['Parse the config file']);
    assertClose(v, expected(tokTable, typTable, ['[CLS]', 'parse', 'the', 'config', 'file', '[SEP]']));
    assert.ok(Math.abs(Math.hypot(...v) - 1) < 1e-5);
  });

  it('runs a query between the batches of a long document call queued before it, with the same results', async () => {
    const docs = ['cat', 'the cat sat on the mat', 'load user name', 'read json file', 'save', 'parse the config file', 'user', 'file name'];
    const order: string[] = [];
    const long = embedder.embed(docs).then((v) => (order.push('documents'), v));
    const query = embedder.embedQueries(['load user name']).then((v) => (order.push('query'), v));
    const [docVecs, [q]] = await Promise.all([long, query]);
    assert.deepStrictEqual(order, ['query', 'documents'], 'the query did not wait for all four document batches');
    assertClose(q, docVecs[2]);
    const [alone] = await embedder.embed(['read json file']);
    assertClose(docVecs[3], alone);
  });

  it('gives identical vectors for identical texts, and batches equal single calls', async () => {
    // Different lengths in one call, batch size 2: sorting and padding must not change results.
    const texts = ['cat', 'the cat sat on the mat', 'load user name', 'cat', 'read json file', 'save'];
    const batched = await embedder.embed(texts);
    assert.deepStrictEqual(batched[0], batched[3]);
    for (let i = 0; i < texts.length; i++) {
      const [single] = await embedder.embed([texts[i]]);
      assertClose(batched[i], single);
    }
    assert.notDeepStrictEqual(batched[0], batched[1]);
  });

  it('truncates to maxTokens keeping the closing special token', async () => {
    const short = await OnnxEmbedder.load(dir, { maxTokens: 4 });
    try {
      const [v] = await short.embed(['parse config file read json']);
      assertClose(v, expected(tokTable, typTable, ['[CLS]', 'parse', 'config', '[SEP]']));
      const [long] = await short.embed(['parse config ' + 'file '.repeat(5000)]);
      assertClose(long, v);
    } finally {
      await short.dispose();
    }
  });

  it('uses CLS pooling when the sentence-transformers pooling config asks for it', async () => {
    const clsDir = tempDir('rr-embed-cls-');
    try {
      writeTinyModel(clsDir, tokTable, typTable);
      fs.mkdirSync(path.join(clsDir, '1_Pooling'));
      fs.writeFileSync(path.join(clsDir, '1_Pooling', 'config.json'), JSON.stringify({ pooling_mode_cls_token: true, pooling_mode_mean_tokens: false }));
      const cls = await OnnxEmbedder.load(clsDir);
      try {
        const [v] = await cls.embed(['the cat']);
        assertClose(v, expected(tokTable, typTable, ['[CLS]']));
        assert.notStrictEqual(cls.modelId, embedder.modelId);
      } finally {
        await cls.dispose();
      }
    } finally {
      fs.rmSync(clsDir, { recursive: true, force: true });
    }
  });

  it('gives the same modelId for the same files and a new one when the weights change', async () => {
    const again = await OnnxEmbedder.load(dir);
    const otherDir = tempDir('rr-embed-other-');
    try {
      assert.strictEqual(again.modelId, embedder.modelId);
      writeTinyModel(otherDir, table(VOCAB.length, 99), typTable);
      const other = await OnnxEmbedder.load(otherDir);
      assert.notStrictEqual(other.modelId, embedder.modelId);
      await other.dispose();
    } finally {
      await again.dispose();
      fs.rmSync(otherDir, { recursive: true, force: true });
    }
  });

  it('rejects when aborted', async () => {
    const ctl = new AbortController();
    ctl.abort(new Error('user typed again'));
    await assert.rejects(embedder.embed(['cat'], ctl.signal), /user typed again/);
  });

  describe('clear errors for broken model directories', () => {
    let broken: string;
    beforeEach(() => {
      broken = tempDir('rr-embed-broken-');
      writeTinyModel(broken, tokTable, typTable);
    });
    afterEach(() => fs.rmSync(broken, { recursive: true, force: true }));

    it('missing tokenizer.json', async () => {
      fs.rmSync(path.join(broken, 'tokenizer.json'));
      await assert.rejects(OnnxEmbedder.load(broken), /no tokenizer\.json in/);
    });
    it('missing model.onnx', async () => {
      fs.rmSync(path.join(broken, 'model.onnx'));
      await assert.rejects(OnnxEmbedder.load(broken), /no model\.onnx in/);
    });
    it('truncated tokenizer.json', async () => {
      const file = path.join(broken, 'tokenizer.json');
      fs.writeFileSync(file, fs.readFileSync(file, 'utf8').slice(0, 100));
      await assert.rejects(OnnxEmbedder.load(broken), /tokenizer .* is not valid JSON/);
    });
    it('corrupt model.onnx', async () => {
      const file = path.join(broken, 'model.onnx');
      fs.writeFileSync(file, fs.readFileSync(file).subarray(0, 200));
      await assert.rejects(OnnxEmbedder.load(broken), /onnxruntime could not load .*model\.onnx/);
    });
    it('missing directory', async () => {
      await assert.rejects(OnnxEmbedder.load(path.join(broken, 'nope')), /does not exist/);
    });
  });
});

describe('reference model (models/reference-use-lite)', function () {
  this.timeout(60_000);
  const refDir = path.resolve(__dirname, '../../../models/reference-use-lite');

  it('loads and puts a paraphrase closer than unrelated text', async function () {
    if (!fs.existsSync(path.join(refDir, 'tokenizer.json'))) {
      console.log(`      (skipped: ${refDir} absent; build it with \`npm run model:reference\`)`);
      this.skip();
    }
    const ref = await OnnxEmbedder.load(refDir);
    try {
      assert.strictEqual(ref.dim, 512);
      const [a, para, other] = await ref.embed([
        'read the configuration file and parse it',
        'parse the config file after loading it',
        'the cat sat on the mat',
      ]);
      const dot = (x: Float32Array, y: Float32Array) => x.reduce((s, v, i) => s + v * y[i], 0);
      assert.ok(dot(a, para) > dot(a, other) + 0.1, `paraphrase ${dot(a, para)} vs unrelated ${dot(a, other)}`);
    } finally {
      await ref.dispose();
    }
  });
});
