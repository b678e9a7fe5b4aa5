// Multi-line completions: the rules that cut a model's answer to what belongs at the cursor
// (cleanCompletion in extension/src/backends/prompt.ts), table-driven. Each case gives the cursor's
// line up to the cursor, the text after the cursor, the raw answer and what must be shown.
import * as assert from 'node:assert';
import { cleanCompletion, statementComplete } from '../../extension/src/backends/prompt';

interface Case {
  name: string;
  line: string;
  suffix: string;
  raw: string;
  shown: string;
}

const CASES: Case[] = [
  {
    name: 'the enclosing block ends: a line indented less than the cursor is not taken',
    line: '    ', suffix: '\n  }\n  return lower;\n}\n',
    raw: 'while (lower.length >= 2 && cross(lower[lower.length - 2], lower[lower.length - 1], p) <= 0) {\n      lower.pop();\n    }\n    lower.push(p);\n  }\n  return lower;',
    shown: 'while (lower.length >= 2 && cross(lower[lower.length - 2], lower[lower.length - 1], p) <= 0) {\n      lower.pop();\n    }\n    lower.push(p);',
  },
  {
    name: 'a blank line after a complete statement ends the completion',
    line: '  const total = ', suffix: '\n',
    raw: 'subtotal + shipping;\n\n  console.log(total);',
    shown: 'subtotal + shipping;',
  },
  {
    name: 'a blank line inside an unfinished block is kept, up to the block end',
    line: 'export function area(poly: Point[]): number ', suffix: '\n\nexport function perimeter() {}\n',
    raw: '{\n  let sum = 0;\n\n  for (let i = 0; i < poly.length; i++) sum += cross(poly[i], poly[(i + 1) % poly.length]);\n  return Math.abs(sum) / 2;\n}\n\nexport function centroid() {',
    shown: '{\n  let sum = 0;\n\n  for (let i = 0; i < poly.length; i++) sum += cross(poly[i], poly[(i + 1) % poly.length]);\n  return Math.abs(sum) / 2;\n}',
  },
  {
    name: 'a blank line inside an open call is kept',
    line: '  const rates = buildRates(', suffix: '\n',
    raw: '\n    zones,\n\n    weights,\n  );\n\n  return rates;',
    shown: '\n    zones,\n\n    weights,\n  );',
  },
  {
    name: 'the suffix\'s next line written again ends the completion (same indentation)',
    line: '  ', suffix: '\n  return total;\n}\n',
    raw: 'total += item.price * item.quantity;\n  return total;\n}',
    shown: 'total += item.price * item.quantity;',
  },
  {
    name: 'a copy of the rest of the cursor\'s line is dropped',
    line: '  const hull = convexHull(', suffix: ');\n  return hull;\n',
    raw: 'sorted, { strict: true });',
    shown: 'sorted, { strict: true }',
  },
  {
    name: 'indentation is kept as written, nested blocks included',
    line: '  for (const p of points) {', suffix: '\n  return out;\n}\n',
    raw: '\n    if (p.x > 0) {\n      out.push(p);\n    }\n  }',
    shown: '\n    if (p.x > 0) {\n      out.push(p);\n    }\n  }',
  },
  {
    name: 'Python: a block opened with a colon continues past a blank line, and ends at the dedent',
    line: '    def area(self):', suffix: '\n\ndef main():\n',
    raw: '\n        w = self.width\n\n        return w * self.height\n\ndef helper():\n    pass',
    shown: '\n        w = self.width\n\n        return w * self.height',
  },
  {
    name: 'tabs count as indentation',
    line: '\t\t', suffix: '\n\t}\n',
    raw: 'x++;\n\t\ty++;\n\t}\n\tz++;',
    shown: 'x++;\n\t\ty++;',
  },
  {
    name: 'CRLF answers and trailing whitespace',
    line: '', suffix: '',
    raw: 'a();\r\nb();   \r\n\r\nc();',
    shown: 'a();\nb();',
  },
];

describe('multi-line stop rules', () => {
  for (const c of CASES) {
    it(c.name, () => assert.strictEqual(cleanCompletion(c.raw, c.suffix, c.line), c.shown));
  }

  it('a statement is complete when its brackets are closed and nothing is pending at the end', () => {
    for (const t of ['a();', 'const x = f(1, 2)', 'return { a: 1 };', 'if (x) { y(); }', "s = '(' + t", 'x = 1  // trailing (comment']) assert.ok(statementComplete(t), t);
    for (const t of ['f(1,', 'const x =', 'if (x) {', 'def f():', 'a &&', 'items.map((i) =>', 'return', 'obj.']) assert.ok(!statementComplete(t), t);
  });
});
