// Hover: what a name in the code is, from the repository. Only on names (the engine decides by the
// syntax node at the position: never keywords, comments, strings or numbers) that the index knows
// (defined in the repository, or used in other files). The definition comes first, as its
// declaration line and doc comment; then at most reporecall.hover.maxSnippets distinct places that
// call, use or resemble it, one line each, copies collapsed with a count, and why each is there in
// words. reporecall.hover.mode: off | identifiers | modifier (see hoverGate.ts).
import * as vscode from 'vscode';
import type { SymbolDefinition, SymbolInfo } from '../../../engine/src/public';
import type { RetrievedChunk } from '../../../engine/src/public';
import { config } from '../config';
import type { Ctx } from '../ctx';
import { fenceLanguage, signalFor } from '../editorState';
import { groupCopies, isDocFile } from './copies';
import { HoverGate } from './hoverGate';
import { namePatterns, subWords } from './namePatterns';
import { pickDefinition } from './relatedRows';
import { timedHover } from '../timedProviders';

/** Characters of a usage line shown in the hover. */
const PREVIEW_CHARS = 48;
/** Doc lines shown under the declaration. */
const DOC_LINES = 3;
/** Chunk kinds that can resemble a definition (not imports or grouped top-level code). */
const RESEMBLING_KINDS = new Set(['function', 'method', 'class', 'class-header', 'type']);

export type UsageReason = 'calls it' | 'uses it' | 'imports it' | 'similar code';

export interface HoverUsage {
  file: string;
  /** The line shown (0-based): where the name appears, else the chunk's first line. */
  line: number;
  reason: UsageReason;
  preview: string;
  copies: number;
}

export interface HoverModel {
  symbol: SymbolInfo;
  /** The definition shown, if the index has one (other definitions are counted as copies). */
  definition?: SymbolDefinition;
  /** The hovered name is this definition's own name. */
  definedHere: boolean;
  otherDefinitions: number;
  usages: HoverUsage[];
}


/** Distinct places that call, use or resemble the name, best first, copies collapsed. */
export function usagesOf(symbol: SymbolInfo, rel: string, cursorLine: number, chunks: RetrievedChunk[], max: number): HoverUsage[] {
  const { word, call, declares } = namePatterns(symbol.name);
  const isDefinition = (c: RetrievedChunk): boolean =>
    symbol.definitions.some((d) => d.file === c.file && d.declLine >= c.startLine && d.declLine <= c.endLine) ||
    c.name === symbol.name || (c.name?.endsWith(`.${symbol.name}`) ?? false);
  const candidates = chunks.filter((c) =>
    !(c.file === rel && c.startLine <= cursorLine && cursorLine <= c.endLine) && !isDefinition(c) && !isDocFile(c.file));
  const groups = groupCopies(candidates, (c) => c.text);
  // Code "resembles" the name when it shares one of its longer sub-words (timesteps, Hull, ...).
  const parts = subWords(symbol.name);
  const comment = /^\s*(#|\/\/|\*|\/\*)/;
  const importLine = /^\s*(import\b|from\s+\S+\s+import\b|export\s+\{.*\}\s+from\b|use\s|#include\b|const\s+.*=\s*require\()/;
  const out: HoverUsage[] = [];
  for (const g of groups) {
    const c = g.first;
    const lines = c.text.split('\n');
    let reason: UsageReason = 'calls it';
    // A line that declares the name is neither a call nor a use.
    let at = lines.findIndex((l) => call.test(l) && !comment.test(l) && !importLine.test(l) && !declares.test(l));
    if (at < 0) {
      reason = 'uses it';
      at = lines.findIndex((l) => word.test(l) && !comment.test(l) && !importLine.test(l) && !declares.test(l));
    }
    if (at < 0) {
      reason = 'imports it';
      at = lines.findIndex((l) => word.test(l) && importLine.test(l));
    }
    if (at < 0) {
      const lower = c.text.toLowerCase();
      if (!RESEMBLING_KINDS.has(c.kind) || !parts.some((w) => lower.includes(w))) continue;
      reason = 'similar code';
      at = Math.max(0, lines.findIndex((l) => l.trim() && !comment.test(l) && !l.trim().startsWith('@')));
    }
    const preview = (lines[at] ?? '').trim();
    out.push({ file: c.file, line: c.startLine + at, reason, preview: preview.length > PREVIEW_CHARS ? `${preview.slice(0, PREVIEW_CHARS - 1)}…` : preview, copies: g.copies.length });
  }
  // Places that call or use the name before imports and code that merely resembles it.
  const order: Record<UsageReason, number> = { 'calls it': 0, 'uses it': 1, 'imports it': 2, 'similar code': 3 };
  return out.map((u, i) => ({ u, i })).sort((a, b) => order[a.u.reason] - order[b.u.reason] || a.i - b.i).map(({ u }) => u).slice(0, max);
}

/** A doc comment as Markdown text: its own `code` spans kept, HTML and link syntax neutralised, line breaks kept. */
function docMarkdown(doc: string): string {
  // The first paragraph: a docstring's summary, not its parameter list.
  const blank = doc.split('\n').findIndex((l) => !l.trim());
  const lines = (blank > 0 ? doc.split('\n').slice(0, blank) : doc.split('\n'));
  const shown = lines.slice(0, DOC_LINES);
  if (lines.length > DOC_LINES) shown.push('…');
  return shown.map((l) => l.replace(/[\\<>[\]*#|]/g, (ch) => `\\${ch}`)).join('  \n');
}

export function buildHoverModel(symbol: SymbolInfo, rel: string, cursorLine: number, chunks: RetrievedChunk[], max: number): HoverModel {
  const definition = pickDefinition(symbol, rel);
  const definedHere = symbol.role === 'definition';
  const shownDefs = (definition ? 1 : 0) + (definedHere ? 1 : 0);
  return {
    symbol,
    definition,
    definedHere,
    // A resolved definition counts its copies (same declaration and doc elsewhere); otherwise the other definitions.
    otherDefinitions: symbol.resolution === 'defines' ? symbol.copies ?? 0 : Math.max(0, symbol.definitions.length - shownDefs),
    usages: usagesOf(symbol, rel, cursorLine, chunks, max),
  };
}

/** A file:line link; `short` labels it with the file's name only (the full path is its tooltip). */
function link(folder: vscode.Uri, file: string, line: number, short = false): string {
  const target = vscode.Uri.joinPath(folder, file).with({ fragment: `L${line + 1}` });
  const label = short ? `${file.slice(file.lastIndexOf('/') + 1)}:${line + 1}` : `${file}:${line + 1}`;
  return short ? `[${label}](${target.toString()} "${file.replace(/"/g, '')}:${line + 1}")` : `[${label}](${target.toString()})`;
}

const code = (s: string): string => (s.includes('`') ? `\`\` ${s} \`\`` : `\`${s}\``);

export function hoverMarkdown(folder: vscode.Uri, model: HoverModel): vscode.MarkdownString {
  const md = new vscode.MarkdownString(undefined, true);
  const { symbol, definition } = model;
  const copies = model.otherDefinitions ? ` (+ ${model.otherDefinitions} ${model.otherDefinitions === 1 ? 'copy' : 'copies'})` : '';
  if (definition) {
    md.appendMarkdown(`**RepoRecall** · defines ${code(symbol.name)} · ${link(folder, definition.file, definition.declLine)}${copies}\n\n`);
    md.appendCodeblock(definition.declaration, fenceLanguage(definition.file));
    if (definition.doc) md.appendMarkdown(`${docMarkdown(definition.doc)}\n`);
  } else if (symbol.resolution === 'candidates' && symbol.definitions.length && !model.definedHere) {
    // Not resolved: the definitions of this spelling are only candidates, never "defines".
    const shown = symbol.definitions.slice(0, 3).map((d) => link(folder, d.file, d.declLine, true)).join(', ');
    const more = symbol.definitions.length > 3 ? ` (+ ${symbol.definitions.length - 3})` : '';
    md.appendMarkdown(`**RepoRecall** · ${code(symbol.name)} · not resolved here; same name in ${shown}${more}\n\n`);
  } else if (model.definedHere) {
    md.appendMarkdown(`**RepoRecall** · ${code(symbol.name)} is defined here${copies}\n\n`);
  } else {
    md.appendMarkdown(`**RepoRecall** · ${code(symbol.name)} · used in ${symbol.usedInFiles.length} other file${symbol.usedInFiles.length === 1 ? '' : 's'}\n\n`);
  }
  if (model.usages.length) {
    md.appendMarkdown('\n---\n\n');
    for (const u of model.usages) {
      const more = u.copies ? ` (+ ${u.copies} ${u.copies === 1 ? 'copy' : 'copies'})` : '';
      md.appendMarkdown(`- ${link(folder, u.file, u.line, true)} ${u.reason}${more}: ${code(u.preview)}\n`);
    }
  }
  return md;
}

export interface HoverTiming {
  /** The engine request (symbol + retrieval), round trip. */
  requestMs: number;
  totalMs: number;
}

export function registerHover(ctx: Ctx): { lastTiming(): HoverTiming | undefined; gate: HoverGate } {
  let last: HoverTiming | undefined;
  const gate = new HoverGate(ctx);
  ctx.push(
    vscode.languages.registerHoverProvider({ scheme: 'file' }, timedHover(ctx, {
      async provideHover(doc, pos, token) {
        if (!gate.allows()) return undefined;
        const fi = ctx.folderFor(doc.uri);
        const rel = fi?.relPath(doc.uri);
        if (!fi || rel === undefined || !fi.canServe) return undefined;
        const { signal, dispose } = signalFor(token);
        const t0 = performance.now();
        try {
          // One request: the name at the position, then the chunks found for it. The name leads
          // the query; its line gives the retrieval some context. Whole chunks, as written, so a
          // usage's line number is exact.
          const max = config.hoverMaxSnippets();
          const found = await fi.client.symbolRelated(rel, pos.line, pos.character, {
            context: doc.lineAt(pos.line).text.trim(),
            options: { k: max * 4 + 4, compact: false, excerpt: 'head', maxLinesPerHit: 400 },
          }, { content: doc.isDirty ? doc.getText() : undefined, signal });
          const t1 = performance.now();
          if (!found || token.isCancellationRequested) return undefined;
          const { symbol, chunks } = found;
          const model = buildHoverModel(symbol, rel, pos.line, chunks, max);
          if (!model.definition && !model.usages.length && !model.definedHere) return undefined;
          const range = new vscode.Range(symbol.line, symbol.startCharacter, symbol.line, symbol.endCharacter);
          last = { requestMs: t1 - t0, totalMs: performance.now() - t0 };
          ctx.log.debug(`hover ${symbol.name} at ${rel}:${pos.line + 1}: engine request ${last.requestMs.toFixed(1)} ms, total ${last.totalMs.toFixed(1)} ms`);
          return new vscode.Hover(hoverMarkdown(fi.folder.uri, model), range);
        } catch {
          return undefined; // cancelled or engine busy: a hover is optional
        } finally {
          dispose();
        }
      },
    })),
  );
  return { lastTiming: () => last, gate };
}
