// The Markdown that goes into a VSIX (README, CHANGELOG), and the check that no link in a built
// VSIX's Markdown is dead.
//
// vsce turns a relative link into `<base>/<path>` when it knows where the repository is published
// (package.json `repository`, or --baseContentUrl), and refuses to package otherwise. RepoRecall has
// no public repository URL to give it, and nothing a Marketplace page or VS Code's extension view
// could open lies behind a relative link, so package.sh hands vsce a copy in which every relative
// link is rewritten: with a base URL (`npm run package -- --base-url URL`, the publisher's real
// repository) to an absolute one, without to plain text that names the document. The parse is
// CommonMark + GFM (micromark, the parser behind remark), so every form counts: inline links,
// images, reference definitions (vsce's own regex never sees those, they would stay dead) and
// links nested in links, and link syntax inside code stays as written (vsce's regex would rewrite
// or refuse it, so package.sh turns vsce's own rewriting off). Raw HTML with a relative href/src
// is refused with its line: no parse of ours could rewrite it reliably, and a Markdown link says
// the same.
'use strict';
const path = require('node:path');

let parser;
/** The ESM-only parser (micromark + GFM), loaded once. */
async function markdownParser() {
  if (!parser) {
    const [{ fromMarkdown }, { gfm }, { gfmFromMarkdown }, { default: GithubSlugger }] = await Promise.all([
      import('mdast-util-from-markdown'),
      import('micromark-extension-gfm'),
      import('mdast-util-gfm'),
      import('github-slugger'),
    ]);
    parser = { parse: (text) => fromMarkdown(text, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] }), GithubSlugger };
  }
  return parser;
}

/** A URL with a scheme (https:, mailto:, vscode:, ...): nothing to resolve inside the VSIX. */
const HAS_SCHEME = /^[a-z][a-z0-9+.-]*:/i;
/** Schemes that point at the packager's machine or run code: dead on anyone else's. */
const DEAD_SCHEMES = /^(file|javascript):/i;
/** href= / src= attribute values in raw HTML. */
const HTML_URL = /\b(?:href|src)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/gi;

const isRelative = (url) => url !== '' && !HAS_SCHEME.test(url) && !url.startsWith('#') && !url.startsWith('//');

function htmlUrls(value) {
  return [...value.matchAll(HTML_URL)].map((m) => m[1] ?? m[2] ?? m[3]);
}

/** Calls `visit(node)` on every node of the tree, parents before children. */
function walk(node, visit) {
  visit(node);
  for (const child of node.children ?? []) walk(child, visit);
}

/**
 * `base` + `url` as vsce joins them (one slash between, `./` and `a/../` folded), with spaces and
 * parentheses escaped: vsce's own link regex must see it as one absolute URL.
 */
function joinUrl(base, url) {
  const joined = `${base.replace(/\/+$/, '')}/${path.posix.normalize(url).replace(/^(\.\/)+/, '')}`;
  return joined.replace(/ /g, '%20').replace(/\(/g, '%28').replace(/\)/g, '%29');
}

/**
 * `text` (Markdown from `name`) with every relative link rewritten: to `baseUrl` + the path when a
 * base URL is given, otherwise to its text followed by the path it named (an image: its alt text).
 * Throws, naming the line, on raw HTML with a relative href/src.
 */
async function packagedMarkdown(text, { name = 'README.md', baseUrl, baseImagesUrl } = {}) {
  const { parse } = await markdownParser();
  const tree = parse(text);
  const definitions = new Map();
  walk(tree, (n) => {
    if (n.type === 'definition') definitions.set(n.identifier, n);
    if (n.type === 'html') {
      const relative = htmlUrls(n.value).filter(isRelative);
      if (relative.length) {
        throw new Error(`${name}:${n.position.start.line}: raw HTML links to "${relative[0]}", a relative path that cannot be rewritten for the VSIX: write it as a Markdown link or image instead`);
      }
    }
  });
  const source = (n) => text.slice(n.position.start.offset, n.position.end.offset);
  const inner = (n) => emitChildren(n, n.children.length ? n.children[0].position.start.offset : n.position.end.offset, n.children.length ? n.children.at(-1).position.end.offset : n.position.end.offset);
  const imageBase = baseImagesUrl ?? baseUrl;
  const title = (n) => (n.title ? ` "${n.title.replace(/"/g, '\\"')}"` : '');
  const plainText = (label, url) => (label.trim() === url || label.trim() === '' ? '`' + url + '`' : `${label} (\`${url}\`)`);

  /** The node's own text with the rewrites applied, or undefined to copy its source. */
  function rewrite(n) {
    if (n.type === 'link' && isRelative(n.url)) {
      return baseUrl ? `[${inner(n)}](${joinUrl(baseUrl, n.url)}${title(n)})` : plainText(inner(n), n.url);
    }
    if (n.type === 'image' && isRelative(n.url)) {
      return imageBase ? `![${n.alt ?? ''}](${joinUrl(imageBase, n.url)}${title(n)})` : n.alt ?? '';
    }
    const def = (n.type === 'linkReference' || n.type === 'imageReference') && definitions.get(n.identifier);
    if (def && isRelative(def.url) && !(n.type === 'linkReference' ? baseUrl : imageBase)) {
      return n.type === 'linkReference' ? plainText(inner(n), def.url) : n.alt ?? '';
    }
    if (n.type === 'definition' && isRelative(n.url)) {
      // With a base URL the definition points there; without, its references became text above.
      return baseUrl ? `[${n.label}]: ${joinUrl(baseUrl, n.url)}${title(n)}` : '';
    }
    return undefined;
  }

  /** The source from `start` to `end` with each child's rewrite in place of its text. */
  function emitChildren(n, start, end) {
    let out = '';
    let at = start;
    for (const child of n.children ?? []) {
      out += text.slice(at, child.position.start.offset) + emit(child);
      at = child.position.end.offset;
    }
    return out + text.slice(at, end);
  }

  function emit(n) {
    const own = rewrite(n);
    if (own !== undefined) return own;
    return n.children ? emitChildren(n, n.position.start.offset, n.position.end.offset) : source(n);
  }

  return text.slice(0, tree.position.start.offset) + emit(tree) + text.slice(tree.position.end.offset);
}

/** Every link target in Markdown `text`: { url, line, kind } for links, images, definitions and raw HTML. */
function linkTargets(tree) {
  const found = [];
  walk(tree, (n) => {
    const line = n.position?.start.line;
    if (n.type === 'link' || n.type === 'image' || n.type === 'definition') found.push({ url: n.url, line, kind: n.type });
    if (n.type === 'html') for (const url of htmlUrls(n.value)) found.push({ url, line, kind: 'html' });
  });
  return found;
}

/** The anchors a page's headings get (GitHub's slugs, which the Marketplace's renderer follows) plus explicit ids. */
function anchors(tree, GithubSlugger) {
  const slugger = new GithubSlugger();
  const ids = new Set();
  walk(tree, (n) => {
    if (n.type === 'heading') ids.add(slugger.slug(plain(n)));
    if (n.type === 'html') for (const m of n.value.matchAll(/\b(?:id|name)\s*=\s*["']([^"']+)["']/gi)) ids.add(m[1]);
  });
  return ids;
}

function plain(n) {
  if (typeof n.value === 'string' && n.type !== 'html') return n.value;
  return (n.children ?? []).map(plain).join('');
}

/**
 * The dead links in the Markdown file `file` (a path inside the VSIX's extension/ folder) whose
 * text is `text`, given every path the VSIX holds: a relative target must be one of `files`
 * (resolved from the file's own folder), a `#fragment` one of the page's anchors, and a URL must not
 * point at a local file. Returns `file:line: why` strings; empty when every link resolves.
 */
async function deadLinks(file, text, files) {
  const { parse, GithubSlugger } = await markdownParser();
  const tree = parse(text);
  const own = anchors(tree, GithubSlugger);
  const have = new Set(files);
  const dead = [];
  for (const { url, line, kind } of linkTargets(tree)) {
    const where = `${file}:${line}: ${kind} "${url}"`;
    if (url === '') dead.push(`${where} has no target`);
    else if (kind === 'image' && HAS_SCHEME.test(url) && !/^https:/i.test(url)) dead.push(`${where}: the Marketplace shows images from https: URLs only`);
    else if (DEAD_SCHEMES.test(url)) dead.push(`${where} points at a local file or runs code`);
    else if (url.startsWith('#')) {
      if (!own.has(decodeURIComponent(url.slice(1)))) dead.push(`${where} names no heading or id of this page`);
    } else if (isRelative(url)) {
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), decodeURI(url.replace(/[?#].*$/, ''))));
      if (!have.has(target)) dead.push(`${where} is not in the VSIX`);
    }
  }
  return dead;
}

module.exports = { packagedMarkdown, deadLinks, isRelative, joinUrl };

// CLI (used by package.sh): write SOURCE.md OUT.md [BASE_URL]
if (require.main === module) {
  const [cmd, from, to, baseUrl] = process.argv.slice(2);
  if (cmd !== 'write' || !from || !to) {
    console.error('usage: node scripts/vscode/vsixMarkdown.cjs write SOURCE.md OUT.md [BASE_URL]');
    process.exit(2);
  }
  const fs = require('node:fs');
  packagedMarkdown(fs.readFileSync(from, 'utf8'), { name: from, baseUrl: baseUrl || undefined })
    .then((text) => fs.writeFileSync(to, text))
    .catch((e) => {
      console.error(e instanceof Error ? e.message : String(e));
      process.exit(1);
    });
}
