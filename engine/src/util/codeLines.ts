// A chunk's code as lines that make it what it is: comments, blank lines and indentation dropped,
// whitespace collapsed. Two definitions are copies when these are equal (hover, Find Related Code).

const COMMENT_ONLY = /^(#|\/\/|\/\*|\*|--|<!--)/;

export function codeLines(text: string): string[] {
  const out: string[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.trim().replace(/\s+/g, ' ');
    if (!line || line === '…' || COMMENT_ONLY.test(line)) continue;
    out.push(line);
  }
  return out;
}
