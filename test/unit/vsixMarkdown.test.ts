import * as assert from 'assert';
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { tempDir } from './tempDir';

// The Markdown a VSIX shows (README, CHANGELOG) and the check of a built VSIX. vsce's own README
// processing (the ReadmeProcessor `vsce package` runs) is the judge of what it accepts; our check
// (deadLinks, checkVsix) is the judge of what a reader of the packaged page can follow.
const ROOT = path.resolve(__dirname, '../../..');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const md = require(path.join(ROOT, 'scripts/vscode/vsixMarkdown.cjs')) as {
  packagedMarkdown(text: string, o?: { name?: string; baseUrl?: string }): Promise<string>;
  deadLinks(file: string, text: string, files: string[]): Promise<string[]>;
};
// eslint-disable-next-line @typescript-eslint/no-require-imports
const targets = require(path.join(ROOT, 'scripts/vscode/targets.cjs')) as {
  checkFiles(target: string, files: string[]): string[];
  checkVsix(target: string, vsix: string): Promise<string[]>;
};
const vscePath = require.resolve('@vscode/vsce', { paths: [ROOT] });
// eslint-disable-next-line @typescript-eslint/no-require-imports
const vscePackage = require(path.join(path.dirname(vscePath), 'package.js')) as {
  ReadmeProcessor: new (manifest: object, options: object) => { onFile(f: object): Promise<{ contents: Buffer }> };
};
// eslint-disable-next-line @typescript-eslint/no-require-imports
const yazl = require(require.resolve('yazl', { paths: [vscePath] })) as {
  ZipFile: new () => { addBuffer(b: Buffer, name: string): void; end(): void; outputStream: NodeJS.ReadableStream };
};

const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { repository?: unknown };

/** A zip of `entries` (name: content) at `file`, written by yazl as vsce writes a VSIX. */
async function writeVsix(file: string, entries: Record<string, string | Buffer>): Promise<string> {
  const zip = new yazl.ZipFile();
  for (const [name, content] of Object.entries(entries)) zip.addBuffer(Buffer.from(content), name);
  zip.end();
  await new Promise<void>((resolve, reject) => zip.outputStream.pipe(fs.createWriteStream(file)).on('close', resolve).on('error', reject));
  return file;
}

/** What `vsce package` makes of `text` as the README, with this package.json (no repository) and `options`. */
async function throughVsce(text: string, options: object = {}): Promise<string> {
  const processor = new vscePackage.ReadmeProcessor(manifest, options);
  const file = await processor.onFile({ path: 'extension/readme.md', contents: Buffer.from(text) });
  return file.contents.toString('utf8');
}

// Every way Markdown links to a file beside it: inline, titled, with a fragment, reference (full,
// collapsed, shortcut), an image, an image inside a link, in a table cell and a list item.
const EVERY_FORM = `# Guide

See [ARCHITECTURE.md](ARCHITECTURE.md) and [the tuned numbers](PARAMS.md#vectors "Tuned") or
[the design][arch], [arch][] and [arch]. Back to [the top](#guide), or [mail](mailto:a@example.com).

[![badge](images/badge.png)](docs/team-index.md) ![diagram](docs/diagram.png)

| what | where |
| --- | --- |
| team index | [setting it up](./docs/../docs/team-index.md) |

- [a list item](training/README.md)

[arch]: ARCHITECTURE.md
`;

describe('packaging: the Markdown in a VSIX', function () {
  this.timeout(60_000);

  it("the repository's README and CHANGELOG, as package.sh packs them, keep no dead link", async () => {
    assert.strictEqual(manifest.repository, undefined, 'no repository URL: relative links cannot be made absolute');
    for (const [name, packed] of [['README.md', 'readme.md'], ['CHANGELOG.md', 'changelog.md']]) {
      const original = fs.readFileSync(path.join(ROOT, name), 'utf8');
      const text = await md.packagedMarkdown(original, { name });
      // vsce with the options package.sh gives it (its own link rewriting off: ours did it).
      const out = await throughVsce(text, { rewriteRelativeLinks: false });
      assert.strictEqual(out, text, 'vsce has nothing left to rewrite');
      assert.deepStrictEqual(await md.deadLinks(packed, out, [packed]), []);
    }
  });

  it('rewrites every relative link form to plain text naming its target when there is no base URL', async () => {
    await assert.rejects(throughVsce(EVERY_FORM), /Couldn't detect the repository/, 'vsce refuses the original');
    const out = await md.packagedMarkdown(EVERY_FORM);
    assert.strictEqual(await throughVsce(out), out);
    assert.deepStrictEqual(await md.deadLinks('readme.md', out, ['readme.md']), []);
    for (const kept of ['`ARCHITECTURE.md`', 'the tuned numbers (`PARAMS.md#vectors`)', 'the design (`ARCHITECTURE.md`)', 'badge (`docs/team-index.md`)',
      'diagram', 'setting it up (`./docs/../docs/team-index.md`)', 'a list item (`training/README.md`)',
      '[the top](#guide)', '[mail](mailto:a@example.com)']) {
      assert.ok(out.includes(kept), `${kept} in:\n${out}`);
    }
    assert.ok(!/^\[arch\]:/m.test(out), 'the definition went with its references');
  });

  it('with a base URL makes every relative link absolute, which vsce leaves as it is', async () => {
    const base = 'https://git.example.org/reporecall/blob/main';
    const out = await md.packagedMarkdown(EVERY_FORM, { baseUrl: `${base}/` });
    assert.strictEqual(await throughVsce(out), out);
    assert.deepStrictEqual(await md.deadLinks('readme.md', out, ['readme.md']), []);
    for (const link of [`[ARCHITECTURE.md](${base}/ARCHITECTURE.md)`, `[the tuned numbers](${base}/PARAMS.md#vectors "Tuned")`,
      `[![badge](${base}/images/badge.png)](${base}/docs/team-index.md)`, `[setting it up](${base}/docs/team-index.md)`, `[arch]: ${base}/ARCHITECTURE.md`]) {
      assert.ok(out.includes(link), `${link} in:\n${out}`);
    }
  });

  it("leaves link syntax in code alone, which vsce's own rewriting would refuse (package.sh turns it off)", async () => {
    const text = '# Links\n\nWrite `[the design](ARCHITECTURE.md)` for a link.\n\n```md\n[x](docs/x.md)\n```\n';
    assert.strictEqual(await md.packagedMarkdown(text), text);
    assert.deepStrictEqual(await md.deadLinks('readme.md', text, ['readme.md']), []);
    await assert.rejects(throughVsce(text), /The link 'ARCHITECTURE.md' will be broken/);
    assert.strictEqual(await throughVsce(text, { rewriteRelativeLinks: false }), text);
  });

  it('finds the dead link vsce lets through: a reference definition its regex never sees', async () => {
    const text = '# Notes\n\nThe [design notes][d] explain it.\n\n[d]: ARCHITECTURE.md\n';
    const out = await throughVsce(text);
    assert.strictEqual(out, text, 'vsce packages it unchanged');
    assert.deepStrictEqual(await md.deadLinks('readme.md', out, ['readme.md']), ['readme.md:5: definition "ARCHITECTURE.md" is not in the VSIX']);
    assert.deepStrictEqual(await md.deadLinks('readme.md', await md.packagedMarkdown(text), ['readme.md']), []);
  });

  it('resolves fragments against the headings, relative paths against the VSIX, and refuses local files and http images', async () => {
    const text = '# Set-up & use\n\n[a](#set-up--use) [b](#missing) [c](models/card.md) [d](file:///home/me/x.md) [e](../up.md)\n\n![f](http://example.com/f.png) ![g](https://example.com/g.png)\n';
    assert.deepStrictEqual(await md.deadLinks('readme.md', text, ['readme.md', 'models/card.md']), [
      'readme.md:3: link "#missing" names no heading or id of this page',
      'readme.md:3: link "file:///home/me/x.md" points at a local file or runs code',
      'readme.md:3: link "../up.md" is not in the VSIX',
      'readme.md:5: image "http://example.com/f.png": the Marketplace shows images from https: URLs only',
    ]);
  });

  it('refuses raw HTML with a relative link, naming the line, and keeps absolute ones', async () => {
    await assert.rejects(md.packagedMarkdown('# A\n\n<img src="docs/shot.png">\n', { name: 'README.md' }), /^Error: README\.md:3: raw HTML links to "docs\/shot\.png"/);
    const ok = '# A\n\n<a href="https://example.com/x">x</a>\n';
    assert.strictEqual(await md.packagedMarkdown(ok), ok);
  });

  it('checkFiles names junk: source maps, sources, tests, bench output, hidden files, package docs', () => {
    const junk = ['dist/extension.js.map', 'engine/src/engine.ts', 'node_modules/web-tree-sitter/lib/parser.c', 'node_modules/onnxruntime-common/test/a.js',
      '.bench-out/bench.json', 'reporecall-0.1.0-linux-x64.vsix', 'grammars/.DS_Store', 'node_modules/onnxruntime-node/README.md'];
    const problems = targets.checkFiles('darwin-x64', junk);
    for (const f of junk) assert.ok(problems.some((p) => p.startsWith(`holds ${f}: `)), `${f}: ${problems.join('\n')}`);
    assert.ok(problems.includes('missing LICENSE.txt') && problems.includes('missing readme.md'));
  });

  it('checkVsix reads a built VSIX: its files, its size bound and the links of every Markdown file it ships', async () => {
    const dir = tempDir('rr-vsix-');
    try {
      const small = await writeVsix(path.join(dir, 'small.vsix'), {
        'extension/readme.md': '# RepoRecall\n\nSee [the design](ARCHITECTURE.md).\n',
        'extension/models/reporecall-code/MODEL_CARD.md': '# Card\n\n[readme](../../readme.md) [gone](data.bin)\n',
        'extension/package.json': '{}',
        'extension/dist/worker.js.map': '{}',
      });
      const problems = await targets.checkVsix('darwin-x64', small);
      assert.ok(problems.includes('readme.md:3: link "ARCHITECTURE.md" is not in the VSIX'), problems.join('\n'));
      assert.ok(problems.includes('models/reporecall-code/MODEL_CARD.md:3: link "data.bin" is not in the VSIX'), problems.join('\n'));
      assert.ok(!problems.some((p) => p.includes('"../../readme.md"')), 'a link to a file the VSIX holds resolves');
      assert.ok(problems.some((p) => p.startsWith('holds dist/worker.js.map: a source map')));
      assert.ok(problems.includes('missing dist/worker.js') && problems.includes('missing LICENSE.txt'));
      assert.ok(!problems.some((p) => p.includes('MB bound')), 'a small VSIX is within its bound');
      // 5 MB that do not compress: over darwin-x64's 4 MB bound.
      const big = await writeVsix(path.join(dir, 'big.vsix'), { 'extension/readme.md': '# A\n', 'extension/grammars/wasm/x.wasm': crypto.randomBytes(5 * 1024 * 1024) });
      assert.ok((await targets.checkVsix('darwin-x64', big)).some((p) => /^5\.0 MB is over darwin-x64's 4 MB bound/.test(p)));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
