// The one line-splitting rule used everywhere (VS Code's numbering for \n and \r\n files):
// split on \n, drop the final empty element of a file that ends with \n, strip one trailing \r.
export function splitLines(content: string): string[] {
  const lines = content.split('\n');
  if (content.endsWith('\n')) lines.pop();
  return lines.map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
}
