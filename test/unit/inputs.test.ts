// Files as the editor shows them (issue 28, "Inputs"): UTF-16 with a BOM decoded, a UTF-8 BOM
// dropped, invalid UTF-8 bytes shown as U+FFFD, lone-CR line ends split as VS Code splits them,
// and a name that is not UTF-8 reported as such. Real engine: tree-sitter, the index on disk.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { Engine } from '../../engine/src/engine';
import { scanWorkspace } from '../../engine/src/scan';
import { decodeSource } from '../../engine/src/util/sourceText';
import { splitLines } from '../../engine/src/util/lines';
import type { EditorState } from '../../engine/src/types';
import { tempDir } from './tempDir';

const utf16le = (text: string) => Buffer.from('\ufeff' + text, 'utf16le');
const utf16be = (text: string) => utf16le(text).swap16();

const PY = (name: string, value: number) => `def ${name}():\n    return ${value}\n\n\ndef call_${name}():\n    return ${name}() + 1\n`;

describe('inputs as the editor shows them', function () {
  this.timeout(60_000);
  let root: string;
  let indexDir: string;
  let engine: Engine;

  before(async () => {
    root = tempDir('rr-inputs-');
    indexDir = tempDir('rr-inputs-index-');
    fs.mkdirSync(path.join(root, 'src'));
    fs.writeFileSync(path.join(root, 'src/wide_le.py'), utf16le(PY('wide_little_endian_helper', 41)));
    fs.writeFileSync(path.join(root, 'src/wide_be.py'), utf16be(PY('wide_big_endian_helper', 42)));
    fs.writeFileSync(path.join(root, 'src/bom8.py'), '\ufeff' + PY('byte_order_marked_helper', 43));
    fs.writeFileSync(path.join(root, 'src/mac.py'), PY('classic_mac_helper', 44).replace(/\n/g, '\r'));
    // One Latin-1 byte in a comment: the rest of the file is worth as much as ever.
    fs.writeFileSync(path.join(root, 'src/latin1.py'), Buffer.concat([Buffer.from('# caf'), Buffer.from([0xe9]), Buffer.from('\n' + PY('latin_one_commented_helper', 45))]));
    fs.writeFileSync(path.join(root, 'src/use.py'), 'from src import x\n\n\ndef consumer():\n    return wide_little_endian_helper() + classic_mac_helper()\n');
    engine = await Engine.open({ root, indexDir, dense: false, log: () => undefined });
    await engine.indexAll();
  });

  after(async () => {
    await engine?.close();
    fs.rmSync(root, { recursive: true, force: true });
    fs.rmSync(indexDir, { recursive: true, force: true });
  });

  async function hitOf(file: string, name: string) {
    const hits = await engine.retrieve(name.replace(/_/g, ' '), { k: 20 });
    const hit = hits.find((h) => h.file === file && h.name === name);
    assert.ok(hit, `${file} ${name} among ${JSON.stringify(hits.map((h) => `${h.file} ${h.name}`))}`);
    return hit!;
  }

  for (const [file, name] of [['src/wide_le.py', 'wide_little_endian_helper'], ['src/wide_be.py', 'wide_big_endian_helper'], ['src/bom8.py', 'byte_order_marked_helper']]) {
    it(`${file}: decoded, chunked at the editor's lines, shown without its BOM, and its names found by position`, async () => {
      assert.ok(!engine.skippedFiles().some((s) => s.relPath === file), JSON.stringify(engine.skippedFiles()));
      const def = await hitOf(file, name);
      assert.strictEqual(def.startLine, 0);
      assert.strictEqual(def.text.split('\n')[0], `def ${name}():`);
      const caller = await hitOf(file, `call_${name}`);
      assert.deepStrictEqual([caller.startLine, caller.endLine], [4, 5]);
      // Hover on line 5, column 11 (the editor's position of the call): the name and its definition on line 0.
      const symbol = await engine.symbolAt(file, 5, 11);
      assert.strictEqual(symbol?.name, name);
      assert.strictEqual(symbol?.definitions[0]?.declLine, 0);
      // Line 0, column 4: the BOM is not a column.
      assert.strictEqual((await engine.symbolAt(file, 0, 4))?.name, name);
    });
  }

  it('a lone-CR file has the lines the editor shows: chunks, excerpts, hover and the line cache agree', async () => {
    const def = await hitOf('src/mac.py', 'classic_mac_helper');
    assert.deepStrictEqual([def.startLine, def.endLine], [0, 1]);
    assert.strictEqual(def.text, 'def classic_mac_helper():\n    return 44');
    const caller = await hitOf('src/mac.py', 'call_classic_mac_helper');
    assert.deepStrictEqual([caller.startLine, caller.endLine], [4, 5]);
    assert.strictEqual(caller.text, 'def call_classic_mac_helper():\n    return classic_mac_helper() + 1');
    const symbol = await engine.symbolAt('src/mac.py', 5, 11);
    assert.strictEqual(symbol?.name, 'classic_mac_helper');
    assert.deepStrictEqual(symbol?.definitions.map((d) => [d.file, d.declLine]), [['src/mac.py', 0]]);
  });

  it('an editor state with lone CRs is read as the same lines as one with LFs (retrieve and complete)', async () => {
    const lf: EditorState = { file: 'src/new.py', prefix: 'def call_classic_mac_helper():\n    return classic_', line: 1 };
    const cr: EditorState = { ...lf, prefix: lf.prefix.replace(/\n/g, '\r') };
    const completion = await engine.complete(lf);
    // An answer (here an abstention that weighed the lines before the cursor), not null for want of lines.
    assert.ok(completion, 'the lines before the cursor were found');
    assert.deepStrictEqual(await engine.complete(cr), completion);
    const names = async (s: EditorState) => (await engine.retrieve(s, { k: 5 })).map((h) => `${h.file}:${h.startLine}-${h.endLine}`);
    assert.deepStrictEqual(await names(cr), await names(lf));
  });

  it('one invalid UTF-8 byte does not drop the file: it is indexed, the byte shown as U+FFFD', async () => {
    assert.ok(!engine.skippedFiles().some((s) => s.relPath === 'src/latin1.py'), JSON.stringify(engine.skippedFiles()));
    const def = await hitOf('src/latin1.py', 'latin_one_commented_helper');
    // The comment above the definition comes with it, as the editor shows it.
    assert.deepStrictEqual([def.startLine, def.endLine, def.text], [0, 2, '# caf\ufffd\ndef latin_one_commented_helper():\n    return 45']);
    assert.strictEqual(decodeSource(fs.readFileSync(path.join(root, 'src/latin1.py'))).split('\n')[0], '# caf\ufffd');
  });

  it('an unsaved buffer with lone CRs is indexed at the editor\'s lines', async () => {
    await engine.updateFile('src/buffer.py', PY('unsaved_carriage_helper', 46).replace(/\n/g, '\r'));
    const caller = await hitOf('src/buffer.py', 'call_unsaved_carriage_helper');
    assert.deepStrictEqual([caller.startLine, caller.endLine], [4, 5]);
  });
});

describe('decoding and line splitting', () => {
  it('decodes as VS Code does: BOMs (UTF-8, UTF-16LE, UTF-16BE) dropped, invalid bytes as U+FFFD, lone CR as LF of the same length', () => {
    assert.strictEqual(decodeSource(Buffer.from('\ufeffa\nb', 'utf8')), 'a\nb');
    assert.strictEqual(decodeSource(utf16le('x = "é"\r\n')), 'x = "é"\r\n');
    assert.strictEqual(decodeSource(utf16be('x = "é"\r\n')), 'x = "é"\r\n');
    assert.strictEqual(decodeSource(Buffer.from([0x61, 0xff, 0x62, 0xc3])), 'a\ufffdb\ufffd');
    assert.strictEqual(decodeSource(Buffer.from('a\rb\r\nc\r')), 'a\nb\r\nc\n');
  });

  it('splits lines on CRLF, LF and a lone CR, without a final empty line', () => {
    assert.deepStrictEqual(splitLines('a\rb\r\nc\nd\r'), ['a', 'b', 'c', 'd']);
    assert.deepStrictEqual(splitLines('a\n\rb'), ['a', '', 'b']);
    assert.deepStrictEqual(splitLines('a\r\n'), ['a']);
  });
});

describe('names that are not UTF-8', () => {
  let root: string;
  before(() => (root = tempDir('rr-names-')));
  after(() => fs.rmSync(root, { recursive: true, force: true }));

  it('are skipped with that reason (not as vanished files), escaped so the user can find them; their neighbours are indexed', async () => {
    const raw = (...parts: Array<string | number[]>) => Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : Buffer.from(p))));
    fs.writeFileSync(raw(root, '/caf', [0xe9], '.py'), 'x = 1\n');
    fs.mkdirSync(raw(root, '/dir', [0xff]));
    fs.writeFileSync(raw(root, '/dir', [0xff], '/inside.py'), 'y = 2\n');
    fs.writeFileSync(path.join(root, 'real\ufffd.py'), 'z = 3\n'); // a valid name holding U+FFFD itself
    fs.writeFileSync(path.join(root, 'ok.py'), 'w = 4\n');
    const r = await scanWorkspace(root);
    assert.deepStrictEqual(r.files.map((f) => f.relPath), ['ok.py', 'real\ufffd.py']);
    assert.deepStrictEqual(r.skipped, [
      { relPath: 'caf\\xe9.py', reason: 'invalid-name', detail: 'name not valid UTF-8' },
      { relPath: 'dir\\xff/', reason: 'invalid-name', detail: 'name not valid UTF-8' },
    ]);
  });
});
