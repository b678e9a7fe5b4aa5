// Copies of a definition are same-named definitions with its normalised body (code lines, comments
// and whitespace dropped): equal keys. Telling that a file holds no copy needs no parse of it: a
// copy's code lines are the body's, so its file's text holds each of the body's words.
import { codeLines } from '../util/codeLines';
import { quickHash, sliceLines } from './symbolSyntax';

/** Same-named definitions whose files' texts are read to rule copies out without parsing them. */
export const MAX_COPY_SCAN = 64;
/** The body's longest words looked for in each of those texts. */
const COPY_WORDS = 4;

/** The key of lines `startLine`..`endLine` of `text`: equal keys are copies. */
export function bodyKey(text: string | undefined, startLine: number, endLine: number): string {
  const body = text === undefined ? '' : codeLines(sliceLines(text, startLine, endLine)).join('\n');
  return `${body.length}:${quickHash(body)}`;
}

/** Whether a text could hold a copy of the body of lines `startLine`..`endLine` of `text`: a test of other files' texts; undefined for an empty body (any empty body is its copy). */
export function copyTest(text: string, startLine: number, endLine: number): ((other: string) => boolean) | undefined {
  const words = [...new Set(codeLines(sliceLines(text, startLine, endLine)).join(' ').split(' '))].sort((a, b) => b.length - a.length).slice(0, COPY_WORDS);
  return words[0] ? (other) => words.every((w) => other.includes(w)) : undefined;
}
