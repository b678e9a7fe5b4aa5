// Hover: what a name in the code is, from the repository. Only on names (the engine decides by the
// syntax node at the position: never keywords, comments, strings or numbers) that the index knows
// (defined in the repository, or used in other files). The definition comes first, as its
// declaration line and doc comment; then at most reporecall.hover.maxSnippets distinct places that
// call, use or resemble it, one line each, copies collapsed with a count, and why each is there in
// words. reporecall.hover.mode: off | identifiers | modifier (see hoverGate.ts).
import * as vscode from 'vscode';
import { config } from '../config';
import { conditionalRegistration } from '../conditionalRegistration';
import type { Ctx } from '../ctx';
import { combined } from '../dispose';
import type { HoverTiming } from '../recorder';
import { fenceLanguage, signalFor } from '../editorState';
import { SOURCE_WORDS } from './definitionChoice';
import { buildHoverModel, type HoverModel } from './hoverModel';
import { serverDefinition } from './serverDefinition';
import { HoverGate } from './hoverGate';
import { HoverCache, hoverDefinition, keepable, type HoverPhases } from './hoverFlow';
import { timedHover } from '../timedProviders';

/** Doc lines shown under the declaration. */
const DOC_LINES = 3;

/** A doc comment as Markdown text: its own `code` spans kept, HTML and link syntax neutralised, line breaks kept. */
function docMarkdown(doc: string): string {
  // The first paragraph: a docstring's summary, not its parameter list.
  const blank = doc.split('\n').findIndex((l) => !l.trim());
  const lines = (blank > 0 ? doc.split('\n').slice(0, blank) : doc.split('\n'));
  const shown = lines.slice(0, DOC_LINES);
  if (lines.length > DOC_LINES) shown.push('…');
  return shown.map((l) => l.replace(/[\\<>[\]*#|]/g, (ch) => `\\${ch}`)).join('  \n');
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
    const from = model.source ? ` · ${SOURCE_WORDS[model.source]}` : '';
    md.appendMarkdown(`**RepoRecall** · defines ${code(symbol.name)} · ${link(folder, definition.file, definition.declLine)}${copies}${from}\n\n`);
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

const round = (ms: number): number => Math.round(ms * 10) / 10;

/** The hover's phases as its timing record's detail (bench:ui reads them). */
function phaseDetail(p: Partial<HoverPhases>, flowMs: number): Record<string, number | string> {
  return {
    engineWaitMs: round(p.engineMs ?? flowMs), serverMs: p.serverMs === undefined ? -1 : round(p.serverMs),
    serverWaitMs: round(p.waitMs ?? 0), chooseMs: round(p.chooseMs ?? 0), flowMs: round(flowMs), server: p.server ?? 'not awaited',
    ...Object.fromEntries(Object.entries(p.engineStages ?? {}).map(([stage, ms]) => [`engine_${stage}`, ms])),
  };
}

/** Registered while reporecall.hover.mode is not `off`; `modifier` is decided per request (hoverGate.ts). */
export function registerHover(ctx: Ctx): vscode.Disposable {
  const gate = new HoverGate();
  const cache = new HoverCache<vscode.Hover>();
  const forget = (): void => cache.clear();
  return combined(
    gate.register(),
    // Any edit or save may change a definition shown (the log's output channel is no edit).
    vscode.workspace.onDidChangeTextDocument((e) => { if (e.document.uri.scheme !== 'output' && e.contentChanges.length) forget(); }),
    vscode.workspace.onDidSaveTextDocument(forget),
    vscode.workspace.onDidChangeConfiguration(forget),
    conditionalRegistration(['reporecall.hover'], () => config.hoverMode() !== 'off', () => vscode.languages.registerHoverProvider({ scheme: 'file' }, timedHover(ctx, {
      async provideHover(doc, pos, token) {
        if (!gate.allows()) return undefined;
        const fi = ctx.folderFor(doc.uri);
        const rel = fi?.relPath(doc.uri);
        if (!fi || rel === undefined || !fi.canServe) return undefined;
        const docKey = doc.uri.toString();
        const kept = cache.get(docKey, doc.version, pos.line, pos.character);
        if (kept) {
          ctx.timings.note({ cached: 1 });
          return kept.value;
        }
        const { signal, dispose } = signalFor(token);
        const t0 = performance.now();
        try {
          // One engine request: the name at the position, then the chunks found for it. The name
          // leads the query; its line gives the retrieval some context. Whole chunks, as written, so
          // a usage's line number is exact. The language's definition provider is asked beside it.
          const max = config.hoverMaxSnippets();
          const phases: Partial<HoverPhases> = {};
          const flow = await hoverDefinition({
            engine: fi.client.symbolRelated(rel, pos.line, pos.character, {
              context: doc.lineAt(pos.line).text.trim(),
              options: { k: max * 4 + 4, compact: false, excerpt: 'head', maxLinesPerHit: 400 },
            }, { content: doc.isDirty ? doc.getText() : undefined, signal }),
            server: serverDefinition(doc, pos, config.definitionBudgetMs(), token),
            relPathOf: (u) => fi.relPath(vscode.Uri.parse(u)),
            describe: (f, l, c) => fi.client.definitionAt(f, l, c, { signal }),
            cancelled: () => token.isCancellationRequested,
          }, rel, phases);
          const r0 = performance.now();
          ctx.timings.note(phaseDetail(phases, r0 - t0));
          if (!flow) {
            if (!token.isCancellationRequested && keepable(phases)) cache.put(docKey, doc.version, pos.line, pos.character, pos.character, undefined);
            return undefined;
          }
          const { symbol, source } = flow.choice;
          const model = buildHoverModel(symbol, rel, pos.line, flow.found.chunks, max, source);
          const shown = model.definition || model.usages.length || model.definedHere;
          const range = new vscode.Range(symbol.line, symbol.startCharacter, symbol.line, symbol.endCharacter);
          const hover = shown ? new vscode.Hover(hoverMarkdown(fi.folder.uri, model), range) : undefined;
          if (!token.isCancellationRequested && keepable(phases)) cache.put(docKey, doc.version, symbol.line, symbol.startCharacter, symbol.endCharacter, hover);
          if (!hover) return undefined;
          const last: HoverTiming = { requestMs: phases.engineMs ?? 0, totalMs: performance.now() - t0 };
          ctx.recorder.hoverTiming = last;
          ctx.timings.note({ renderMs: round(performance.now() - r0), source: source ?? 'none' });
          ctx.log.debug(`hover ${symbol.name} at ${rel}:${pos.line + 1}: engine ${last.requestMs.toFixed(1)} ms, total ${last.totalMs.toFixed(1)} ms`);
          return hover;
        } catch {
          return undefined; // cancelled or engine busy: a hover is optional
        } finally {
          dispose();
        }
      },
    }))),
  );
}
