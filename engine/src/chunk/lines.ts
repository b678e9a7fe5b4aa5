// Line bookkeeping and the size-bounded splitting of a line range into pieces.
// Line rule (shared with the rest of the engine, util/lines.ts): CRLF, LF and a lone CR end a line.
import { LINE_BREAK } from '../util/lines';

export interface LineRange {
  startLine: number;
  endLine: number; // inclusive
}

export interface SizeLimits {
  maxLines: number;
  maxChars: number;
}

export class LineIndex {
  readonly lines: string[];
  /** charsBefore[i] = characters in lines 0..i-1 (each counted with its newline). */
  private readonly charsBefore: Uint32Array;

  constructor(content: string) {
    this.lines = content.includes('\r') ? content.split(LINE_BREAK) : content.split('\n');
    this.charsBefore = new Uint32Array(this.lines.length + 1);
    for (let i = 0; i < this.lines.length; i++) this.charsBefore[i + 1] = this.charsBefore[i] + this.lines[i].length + 1;
  }

  get count(): number {
    return this.lines.length;
  }

  isBlank(line: number): boolean {
    return !/\S/.test(this.lines[line]);
  }

  chars(startLine: number, endLine: number): number {
    return this.charsBefore[endLine + 1] - this.charsBefore[startLine];
  }

  fits(startLine: number, endLine: number, limits: SizeLimits): boolean {
    return endLine - startLine + 1 <= limits.maxLines && this.chars(startLine, endLine) <= limits.maxChars;
  }

  /** The range without its leading and trailing blank lines, or undefined if all blank. */
  trim(startLine: number, endLine: number): LineRange | undefined {
    while (startLine <= endLine && this.isBlank(startLine)) startLine++;
    while (endLine >= startLine && this.isBlank(endLine)) endLine--;
    return startLine <= endLine ? { startLine, endLine } : undefined;
  }
}

/**
 * Splits [startLine, endLine] into consecutive pieces within `limits`, preferring to cut right
 * before a line in `cuts` (syntax boundaries, sorted ascending) and aiming for pieces of even size
 * rather than a full piece plus a sliver. Falls back to a hard cut when no boundary fits.
 * A single line longer than maxChars becomes a piece of its own.
 */
export function splitRange(
  index: LineIndex,
  startLine: number,
  endLine: number,
  cuts: readonly number[],
  limits: SizeLimits,
): LineRange[] {
  const pieces: LineRange[] = [];
  let start = startLine;
  let cutPos = 0;
  while (start <= endLine) {
    if (index.fits(start, endLine, limits)) {
      pieces.push({ startLine: start, endLine });
      break;
    }
    // Furthest last line a piece starting at `start` may have.
    let limit = Math.min(endLine, start + limits.maxLines - 1);
    while (limit > start && index.chars(start, limit) > limits.maxChars) {
      limit = start + Math.floor((limit - start) / 2);
    }
    while (limit + 1 <= endLine && limit + 1 - start < limits.maxLines && index.chars(start, limit + 1) <= limits.maxChars) limit++;
    const remaining = endLine - start + 1;
    const target = start + Math.ceil(remaining / Math.ceil(remaining / limits.maxLines)); // ideal next start
    while (cutPos < cuts.length && cuts[cutPos] <= start) cutPos++;
    let best = -1;
    for (let i = cutPos; i < cuts.length && cuts[i] <= limit + 1; i++) {
      if (best < 0 || Math.abs(cuts[i] - target) <= Math.abs(best - target)) best = cuts[i];
    }
    const end = best > start ? best - 1 : limit;
    pieces.push({ startLine: start, endLine: end });
    start = end + 1;
  }
  return pieces;
}

/** Plain line windows over the whole file (no grammar, or parsing failed). */
export function lineWindows(index: LineIndex, windowLines: number, maxChars: number): LineRange[] {
  const out: LineRange[] = [];
  const whole = index.trim(0, index.count - 1);
  if (!whole) return out;
  for (const piece of splitRange(index, whole.startLine, whole.endLine, [], { maxLines: windowLines, maxChars })) {
    const trimmed = index.trim(piece.startLine, piece.endLine);
    if (trimmed) out.push(trimmed);
  }
  return out;
}
