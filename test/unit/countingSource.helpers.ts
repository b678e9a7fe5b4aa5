// An include resolver's source over in-memory files whose grammars are the real ones, counting the
// parses per file (not a test file itself): a test of "parsed once" reads the counts.
import type { Chunker } from '../../engine/src/chunk';

export interface CountingSource {
  textOf(f: string): string | undefined;
  hasFile(f: string): boolean;
  grammarFor: Chunker['grammarFor'];
  definitionsOf(name: string): Array<{ file: string }>;
  /** Parses so far, per file. */
  parsed: Map<string, number>;
}

export function countingSource(chunker: Chunker, files: Record<string, string>, definitionsOf: (name: string) => Array<{ file: string }> = () => []): CountingSource {
  const parsed = new Map<string, number>();
  return {
    textOf: (f) => files[f],
    hasFile: (f) => f in files,
    grammarFor: async (f, text) => {
      const g = await chunker.grammarFor(f, text);
      if (!g) return g;
      // The real parser, counting what it is given per file (the macro replacement keeps positions and lengths).
      const parse = g.parser.parse.bind(g.parser);
      const parser = Object.create(g.parser) as typeof g.parser;
      parser.parse = ((input: string, ...rest: unknown[]) => {
        parsed.set(f, (parsed.get(f) ?? 0) + 1);
        return (parse as (...a: unknown[]) => ReturnType<typeof parse>)(input, ...rest);
      }) as typeof parser.parse;
      return { ...g, parser };
    },
    definitionsOf,
    parsed,
  };
}
