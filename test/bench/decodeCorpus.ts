// How reading files as the editor shows them (util/sourceText.ts decodeSource + util/lines.ts
// splitLines) compares with the former Buffer.toString + split on LF, on a corpus: time (best of
// 7) and whether every file gets the same lines (then rankings cannot change).
//   node out/test/bench/decodeCorpus.js [DIR]   (default: ../shared/bench/repos)
import * as fs from 'fs';
import * as path from 'path';
import { decodeSource } from '../../engine/src/util/sourceText';
import { splitLines } from '../../engine/src/util/lines';

const dir = path.resolve(process.argv[2] ?? path.join(__dirname, '../../../../shared/bench/repos'));
const files: Buffer[] = [];
(function walk(d: string) {
  for (const e of fs.readdirSync(d, { withFileTypes: true })) {
    const p = path.join(d, e.name);
    if (e.isDirectory()) walk(p);
    else if (e.isFile()) files.push(fs.readFileSync(p));
  }
})(dir);

function formerLines(content: string): string[] {
  const lines = content.split('\n');
  if (content.endsWith('\n')) lines.pop();
  return lines.map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
}

const bytes = files.reduce((s, b) => s + b.length, 0);
function time(name: string, read: (b: Buffer) => string[]): void {
  let best = Infinity;
  for (let round = 0; round < 7; round++) {
    const t0 = performance.now();
    for (const b of files) read(b);
    best = Math.min(best, performance.now() - t0);
  }
  console.log(`${name}: ${best.toFixed(1)} ms for ${files.length} files, ${(bytes / 2 ** 20).toFixed(1)} MiB (best of 7)`);
}

time('former (toString, split on LF)', (b) => formerLines(b.toString('utf8')));
time('decodeSource + splitLines', (b) => splitLines(decodeSource(b)));
const same = files.filter((b) => JSON.stringify(formerLines(b.toString('utf8'))) === JSON.stringify(splitLines(decodeSource(b)))).length;
console.log(`files with identical lines: ${same} of ${files.length}`);
