// Building a file's documents (pure): its non-blank chunks, each with the text the indexes see —
// path in front, code, the doc comment when the code does not hold it, the signatures of the
// repository functions it calls behind (CoRet) — and its definitions pointed at the chunks that
// hold them. Secrets in the code, doc and signatures are replaced by placeholders (redact/): the index
// on disk and the team index hold `<redacted:rule>`, never the secret; line breaks stay, so a chunk's
// line range still matches the file.
import { enrichedText, resolveCallees, type DefinitionRef, type DefinitionTable } from '../enrich/callgraph';
import { redactionContext, redactSecrets, type SecretContext } from '../redact';
import type { DocInfo } from '../store/chunkTable';
import type { ChunkedFile } from '../types';

export interface DocumentItem {
  chunk: DocInfo;
  /** The enriched text (lexical index, embedding). */
  text: string;
  /** The chunk's own code (normalised-structure field). */
  code: string;
  /** Name, signature and doc comment (doc field). */
  docText: string;
  /** The repository definitions it calls, as resolved for its enriched text. */
  callees: DefinitionRef[];
}

/**
 * The documents of `rel` (its `lines`, as `chunked` parsed them), one at a time, ids from `nextId`,
 * callees resolved against `defs`: a caller that yields between them keeps a large file's live
 * update from holding the engine while every document is built.
 */
export function* documentItems(rel: string, lines: readonly string[], chunked: ChunkedFile, defs: DefinitionTable, nextId: () => number): Generator<DocumentItem> {
  const selfNames = new Set(chunked.definitions.map((d) => d.name));
  const secrets = redactionContext(() => lines.join('\n'), rel);
  for (const raw of chunked.chunks) {
    const plain = lines.slice(raw.startLine, raw.endLine + 1).join('\n');
    if (!plain.trim()) continue;
    const code = redactedText(plain, rel, secrets);
    const rawDoc = raw.doc && redactedText(raw.doc, rel, secrets);
    const id = nextId();
    const defines = chunked.definitions
      .filter((d) => d.startLine >= raw.startLine && d.startLine <= raw.endLine)
      .map((d) => d.name);
    const chunk: DocInfo = { id, file: rel, startLine: raw.startLine, endLine: raw.endLine, kind: raw.kind, name: raw.name, defines };
    const callees = resolveCallees(rel, raw.calls, chunked.imports, defs, selfNames);
    const doc = rawDoc && !code.includes(rawDoc) ? `\n${rawDoc}` : '';
    const docText = [raw.name, raw.signature && redactedText(raw.signature, rel, secrets), rawDoc].filter(Boolean).join('\n');
    yield { chunk, text: enrichedText(rel, code + doc, callees), code, docText, callees };
  }
}

/**
 * `text` with its secrets replaced by placeholders (`rel` enables the rules restricted to some files;
 * `file`, the context of the whole file `text` is part of, decides which values it derives itself).
 */
export const redactedText = (text: string, rel: string, file?: SecretContext): string => redactSecrets(text, rel, file).text;

/** The file's definitions with the id of the chunk (among `items`) holding each (-1: none, e.g. in a blank chunk). */
export function definitionRefs(rel: string, chunked: ChunkedFile, items: readonly DocumentItem[]): DefinitionRef[] {
  return chunked.definitions.map((d) => ({
    name: d.name, file: rel, signature: redactedText(d.signature, rel),
    chunkId: items.find(({ chunk: c }) => d.startLine >= c.startLine && d.startLine <= c.endLine)?.chunk.id ?? -1,
  }));
}
