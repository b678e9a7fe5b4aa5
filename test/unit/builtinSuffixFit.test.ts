// The built-in completion source reading the text after the cursor (engine/src/complete/suffixFit.ts):
// a candidate whose copy continues with the line below the cursor is offered first, even where the
// places before the cursor disagree; where the line below confirms no candidate, the best one needs
// UNCONFIRMED_MIN_CONFIDENCE. The copies are training and evaluation loops as repositories write them.
import * as assert from 'assert';
import { completeFromSources, MIN_CONFIDENCE } from '../../engine/src/complete/builtin';
import { followingLine, repeatsClosingLine, resemblesFollowing, UNCONFIRMED_MIN_CONFIDENCE } from '../../engine/src/complete/suffixFit';
import type { CompletionSource } from '../../engine/src/complete/lines';

/** Five files whose loop computes `loss` the same way and continues it five ways. */
const CONTINUATIONS: [string, string[]][] = [
  ['train/trainer.py', ['        loss.backward()', '        optimizer.step()']],
  ['eval/metrics.py', ['        total_loss += loss.item()', '        batches += 1']],
  ['eval/history.py', ['        losses.append(loss.detach())', '        steps += 1']],
  ['eval/meters.py', ['        meter.update(loss)', '        steps += 1']],
  ['debug/probe.py', ['        logger.debug(loss)', '        return loss']],
];
const SOURCES: CompletionSource[] = CONTINUATIONS.map(([file, rest]) => {
  const lines = ['    for inputs, labels in loader:', '        outputs = model(inputs)', '        loss = criterion(outputs, labels)', ...rest];
  return { file, lines, from: 0, to: lines.length };
});
const PREFIX = 'def run_epoch(model, loader, criterion):\n    for inputs, labels in loader:\n        outputs = model(inputs)\n        loss = criterion(outputs, labels)\n';

function completeWith(suffix: string | undefined) {
  return completeFromSources({ file: 'train/loop.py', prefix: PREFIX, line: 4, language: 'python', ...(suffix === undefined ? {} : { suffix }) }, SOURCES, { idf: () => 3 });
}

describe('built-in completion: the text after the cursor', () => {
  it('offers the continuation whose next line is the line below the cursor, though another ranks first without it', () => {
    const blind = completeWith(undefined);
    assert.strictEqual(blind?.text.trim(), 'loss.backward()', JSON.stringify(blind));
    const r = completeWith('\n        return loss\n');
    assert.strictEqual(r?.text, '        logger.debug(loss)', JSON.stringify(r));
  });
  it('offers a confirmed continuation the places before the cursor alone make too unlikely', () => {
    const r = completeWith('\n        steps += 1\n\n    return steps\n');
    // `meter.update(loss)` ranks above `losses.append(…)`; both copies go on with `steps += 1`.
    assert.strictEqual(r?.text, '        meter.update(loss)', JSON.stringify(r));
    assert.ok(r.confidence < MIN_CONFIDENCE, JSON.stringify(r));
  });
  it('withdraws a best continuation under UNCONFIRMED_MIN_CONFIDENCE when the line below confirms none', () => {
    const blind = completeWith(undefined);
    assert.ok(blind && blind.confidence < UNCONFIRMED_MIN_CONFIDENCE, JSON.stringify(blind));
    const r = completeWith('\n        scheduler.step(loss)\n');
    assert.ok(r && !r.text, JSON.stringify(r));
    assert.match(r.abstained ?? '', new RegExp(`confidence 0\\.\\d+ < ${UNCONFIRMED_MIN_CONFIDENCE}`), JSON.stringify(r));
  });
  it('after the checks withdraw the confirmed continuation, offers an unconfirmed next one only at UNCONFIRMED_MIN_CONFIDENCE', () => {
    // `logger` unbound at this cursor (scopeCheck.ts's verdict, given here).
    const vet = (text: string) => (/\blogger\./.test(text) ? { text: '', cut: { line: 0, reason: 'unbound' as const, name: 'logger' } } : { text });
    const state = { file: 'train/loop.py', prefix: PREFIX, line: 4, language: 'python', suffix: '\n        return loss\n' };
    const r = completeFromSources(state, SOURCES, { idf: () => 3, vet });
    // `loss.backward()` (0.38) is not confirmed by `return loss`.
    assert.ok(r && !r.text, JSON.stringify(r));
    assert.match(r.abstained ?? '', /uses `logger`, which nothing binds here/);
  });
  it('withdraws a closing line that the line below already is, at the same indentation (the same block closed twice)', () => {
    const prefix = [
      'export function parseHeader(header: string | undefined): Token {',
      '  if (!header) {',
      "    throw new AuthError('missing authorization header')",
      '  }',
      '  return decodeToken(header)',
      '}',
      '',
      'export function parseCookie(cookie: string | undefined): Token {',
      '  if (!cookie) {',
      "    throw new AuthError('missing authorization header')",
      '',
    ].join('\n');
    const at = (suffix?: string) => completeFromSources({ file: 'src/auth.ts', prefix, line: 10, language: 'typescript', ...(suffix === undefined ? {} : { suffix }) }, []);
    assert.strictEqual(at(undefined)?.text, '  }');
    // The file's own earlier block is the copy; below the cursor the block is already closed.
    const r = at('\n  }\n  return decodeToken(cookie)\n}\n');
    assert.ok(r && !r.text, JSON.stringify(r));
    assert.match(r.abstained ?? '', /closes what the line below already closes/);
    // A closer at another indentation below (the function's) is not the same line.
    assert.strictEqual(at('\n}\n')?.text, '  }');
    assert.strictEqual(repeatsClosingLine('', '  }', '\n  }\n'), true);
    assert.strictEqual(repeatsClosingLine('', '  });', '\n  })\n'), false);
  });
  it('reads only a following line with a word character: a bare closer or the end of the file confirms nothing', () => {
    assert.strictEqual(followingLine('\n\n        return loss\n'), 'return loss');
    assert.strictEqual(followingLine(')\n    }\n'), undefined);
    assert.strictEqual(followingLine(''), undefined);
    assert.strictEqual(completeWith('\n    }\n')?.text.trim(), 'loss.backward()');
  });
});

describe('built-in completion: a line below shaped like the copies\' next line', () => {
  // evaluate's evaluator/__init__.py: a table of tasks, each entry closed by `},` and followed by the next.
  const entry = (task: string, impl: string, metric: string) => [`    "${task}": {`, `        "implementation": ${impl},`, `        "default_metric_name": "${metric}",`, '    },'];
  const table = [
    'SUPPORTED_TASKS = {',
    ...entry('text-classification', 'TextClassificationEvaluator', 'accuracy'),
    ...entry('text2text-generation', 'Text2TextGenerationEvaluator', 'bleu'),
    ...entry('summarization', 'SummarizationEvaluator', 'rouge'),
    ...entry('image-to-text', 'ImageToTextEvaluator', 'bleu'),
    '    "translation": {',
    '        "implementation": TranslationEvaluator,',
    '        "default_metric_name": "bleu",',
  ];
  const ask = (below: string) =>
    completeFromSources({ file: 'evaluator/__init__.py', prefix: table.join('\n') + '\n', line: table.length, language: 'python', suffix: `\n${below}\n        "implementation": AutomaticSpeechRecognitionEvaluator,\n` }, [], { idf: (t) => (/^[A-Za-z_]/.test(t) ? 3 : 0.2) });

  it('offers the continuation whose places go on with the next entry of the same table, at the usual confidence', () => {
    const r = ask('    "automatic-speech-recognition": {');
    assert.strictEqual(r?.text, '    },', JSON.stringify(r));
    assert.ok(r.confidence < UNCONFIRMED_MIN_CONFIDENCE, JSON.stringify(r));
  });
  it('still needs UNCONFIRMED_MIN_CONFIDENCE where the line below has another shape', () => {
    const r = ask('    image_classification = ImageClassificationEvaluator');
    assert.ok(r && !r.text, JSON.stringify(r));
    assert.match(r.abstained ?? '', new RegExp(`confidence 0\\.\\d+ < ${UNCONFIRMED_MIN_CONFIDENCE}`), JSON.stringify(r));
  });
  it('still needs UNCONFIRMED_MIN_CONFIDENCE for a continuation with a literal: where the structure repeats, its literal differs', () => {
    // After a closed entry the copies go on with their own task's name; the line below is another task's.
    const closed = [...table, '    },'];
    const suffix = '\n        "implementation": AutomaticSpeechRecognitionEvaluator,\n        "default_metric_name": "wer",\n';
    const r = completeFromSources({ file: 'evaluator/__init__.py', prefix: closed.join('\n') + '\n', line: closed.length, language: 'python', suffix }, [], { idf: (t) => (/^[A-Za-z_]/.test(t) ? 3 : 0.2) });
    assert.ok(r && !r.text, JSON.stringify(r));
    assert.match(r.abstained ?? '', new RegExp(`confidence 0\\.\\d+ < ${UNCONFIRMED_MIN_CONFIDENCE}`), JSON.stringify(r));
  });
  it('reads names and literals as alike, punctuation, keywords and token counts as they are', () => {
    assert.ok(resemblesFollowing('"summarization": {', '"automatic-speech-recognition": {'));
    assert.ok(resemblesFollowing('config = load(TEXT_CONFIG, "text")', 'config = load(IMAGE_CONFIG, "image")'));
    assert.ok(resemblesFollowing('assert_eq!(v[1], 2);', 'assert_eq!(w[7], 3);'));
    assert.ok(!resemblesFollowing('return x', 'yield x'));
    assert.ok(!resemblesFollowing("mat: &SinkMatch<'_>,", "_mat: &SinkMatch<'_>,"), 'a name written otherwise is a renaming, not another entry');
    assert.ok(!resemblesFollowing('loss.backward()', 'loss.backward(retain_graph)'));
    assert.ok(!resemblesFollowing('x = f(a)', 'x = f(a)'), 'the same line confirms, it does not resemble');
  });
});
