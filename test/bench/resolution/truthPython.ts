// Protocol R's ground truth for Python: Jedi (Debian's python3-jedi), run by /usr/bin/python3 on
// jedi_truth.py, one process per repository, queries grouped by file. Where a definition sits (a
// function's local, a module or class member, an import Jedi could not follow) is read from the
// definition file's syntax tree at the position Jedi gives.
import { spawnSync } from 'child_process';
import * as path from 'path';
import type { Node } from 'web-tree-sitter';
import type { Chunker } from '../../../engine/src/chunk';
import type { Repo } from '../split';
import type { Occurrence } from './sample';
import { scopeAt, type Truth, type TruthDef } from './truth';

const SCRIPT = path.resolve(__dirname, '../../../../test/bench/resolution/jedi_truth.py');
const LOCAL_SCOPES = /^(function_definition|lambda|list_comprehension|set_comprehension|dictionary_comprehension|generator_expression)$/;

export async function pythonTruth(repo: Repo, occurrences: Occurrence[], chunker: Chunker): Promise<Truth[]> {
  const root = path.resolve(repo.root);
  const order = occurrences.map((o, i) => ({ o, i })).sort((a, b) => a.o.file.localeCompare(b.o.file) || a.i - b.i);
  const input = JSON.stringify({ root, queries: order.map(({ o }) => ({ file: o.file, line: o.line, column: o.column })) });
  const run = spawnSync('/usr/bin/python3', [SCRIPT], { input, maxBuffer: 256 << 20, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`jedi_truth.py failed (${run.status}): ${run.stderr.slice(-2000)}`);
  const answers = JSON.parse(run.stdout) as Array<Array<{ path: string | null; line: number; column: number; type: string }>>;
  const out: Truth[] = new Array(occurrences.length);
  for (let k = 0; k < order.length; k++) {
    const { o, i } = order[k];
    const defs: TruthDef[] = [];
    let external = answers[k].length === 0;
    for (const a of answers[k]) {
      const rel = a.path ? path.relative(root, a.path).split(path.sep).join('/') : undefined;
      if (!rel || rel.startsWith('..') || !repo.byPath.has(rel)) {
        external = true;
        continue;
      }
      defs.push({ file: rel, line: a.line, column: a.column, scope: a.type === 'module' ? 'module' : await scopeAt(repo, chunker, rel, a.line, a.column, scopeOfName) });
    }
    out[i] = { occurrence: o, defs, external };
  }
  return out;
}

function scopeOfName(name: Node): TruthDef['scope'] {
  for (let p = name.parent; p; p = p.parent) if (p.type === 'import_statement' || p.type === 'import_from_statement') return 'import';
  const decl = name.parent;
  // `self.x = ...` in a method defines a member.
  if (decl?.type === 'attribute' && decl.childForFieldName('attribute')?.id === name.id) return 'member';
  for (let p = decl?.type === 'function_definition' || decl?.type === 'class_definition' ? decl.parent : decl; p; p = p.parent) {
    if (LOCAL_SCOPES.test(p.type)) return 'local';
    if (p.type === 'class_definition' || p.type === 'module') return 'module';
  }
  return 'module';
}
