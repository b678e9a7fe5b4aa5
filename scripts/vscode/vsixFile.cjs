// Reads a built VSIX (a zip) with yauzl, the reader vsce itself uses: no `unzip` binary needed on
// a fresh CI machine.
'use strict';
const yauzl = require('yauzl');

/**
 * The files a VSIX holds under extension/ (paths relative to it) and the text of those for which
 * `wantText(path)` is true.
 */
function readVsix(file, wantText = () => false) {
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true, strictFileNames: true }, (err, zip) => {
      if (err) return reject(new Error(`${file}: not a readable VSIX: ${err.message}`));
      const files = [];
      const texts = new Map();
      zip.on('error', reject);
      zip.on('end', () => resolve({ files, texts }));
      zip.on('entry', (entry) => {
        const name = entry.fileName;
        if (!name.startsWith('extension/') || name.endsWith('/')) return zip.readEntry();
        const rel = name.slice('extension/'.length);
        files.push(rel);
        if (!wantText(rel)) return zip.readEntry();
        zip.openReadStream(entry, (e, stream) => {
          if (e) return reject(e);
          const chunks = [];
          stream.on('data', (c) => chunks.push(c));
          stream.on('error', reject);
          stream.on('end', () => {
            texts.set(rel, Buffer.concat(chunks).toString('utf8'));
            zip.readEntry();
          });
        });
      });
      zip.readEntry();
    });
  });
}

module.exports = { readVsix };
