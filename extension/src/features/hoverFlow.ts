// The hover's requests and how they meet (vscode-free, unit-tested): the engine's symbol request and
// the language's definition provider run side by side; the provider's answer within its budget
// wins, the engine's resolver is the fallback (definitionChoice.ts). Only when the engine's answer
// is certain (bound in this file or reached through its imports) and the provider has not
// answered yet is the engine's shown at once: waiting out the budget would show the same
// definition later. A local shows nothing and waits for nothing. Each phase is timed for bench:ui
// (the record's detail, timings.ts).
import type { DefinitionAt, RetrievedChunk, SymbolInfo, SymbolStages } from '../../../engine/src/public';
import { chooseDefinition, engineIsCertain, type DefinitionChoice, type ServerAnswer } from './definitionChoice';

export interface HoverRequests {
  /** The engine's name at the position and the chunks found for it (null: no repository name there, or a local). */
  engine: Promise<{ symbol: SymbolInfo; chunks: RetrievedChunk[]; stages?: SymbolStages } | null>;
  /** The definition provider's answer, already asked, settled within its budget. */
  server: Promise<ServerAnswer>;
  relPathOf(uri: string): string | undefined;
  /** What the engine finds at a location the provider named. */
  describe(file: string, line: number, character: number): Promise<DefinitionAt & { siblings?: RetrievedChunk[] }>;
  cancelled(): boolean;
}

/** Where a hover's time went (ms from the requests' start), for bench:ui. */
export interface HoverPhases {
  /** The engine's answer arrived. */
  engineMs: number;
  /** The provider's answer arrived or its budget ran out (absent: not awaited). */
  serverMs?: number;
  /** Waited for the provider after the engine had answered. */
  waitMs: number;
  /** Mapping the provider's location to the engine's definition (a second engine request, when needed). */
  chooseMs: number;
  /** What the provider gave: a location, nothing, nothing within its budget (late), or not awaited. */
  server: 'at' | 'none' | 'late' | 'not awaited';
  /** The engine's own time by stage (symbolRelated's `stages`). */
  engineStages?: SymbolStages;
}

export interface HoverFlowResult {
  found: { symbol: SymbolInfo; chunks: RetrievedChunk[]; stages?: SymbolStages };
  choice: DefinitionChoice;
}

/**
 * The definition the hover shows, from both sources. Undefined when there is nothing to show: no
 * repository name, a local (by the engine or by the provider's location), or cancelled.
 */
export async function hoverDefinition(req: HoverRequests, rel: string, phases: Partial<HoverPhases>, now: () => number = () => performance.now()): Promise<HoverFlowResult | undefined> {
  const t0 = now();
  let serverAt: number | undefined;
  const server = req.server.then((a) => ((serverAt = now() - t0), a));
  const found = await req.engine;
  const engineDone = now() - t0;
  phases.engineMs = engineDone;
  if (found?.stages) phases.engineStages = found.stages;
  phases.waitMs = 0;
  phases.chooseMs = 0;
  // A local or no repository name: nothing to show, whatever the provider says.
  if (!found || req.cancelled()) return (phases.server = 'not awaited'), undefined;
  // Certain and the provider still thinking: the engine's definition now (the provider's request
  // runs on, its answer unused).
  const early = serverAt === undefined && engineIsCertain(found.symbol);
  const answer: ServerAnswer = early ? { kind: 'none' } : await server;
  phases.serverMs = serverAt;
  phases.waitMs = early ? 0 : Math.max(0, (serverAt ?? engineDone) - engineDone);
  phases.server = early ? 'not awaited' : answer.kind === 'none' && answer.late ? 'late' : answer.kind;
  const c0 = now();
  // The provider named the declaration of one of the engine's own candidates: no second request.
  const describe: HoverRequests['describe'] = (f, l, c) => ((known) => (known ? Promise.resolve(known) : req.describe(f, l, c)))(candidateAt(found.symbol, f, l));
  const choice = await chooseDefinition(found.symbol, rel, answer, req.relPathOf, describe);
  phases.chooseMs = now() - c0;
  if (!choice || req.cancelled()) return undefined;
  return { found, choice };
}

/**
 * The engine's own candidate declared on `line` of `file` (a name it did not resolve), as the
 * engine's definitionAt describes it: the same definition, its copies counted among the same
 * same-named definitions by their bodies.
 */
export function candidateAt(symbol: SymbolInfo, file: string, line: number): DefinitionAt | undefined {
  if (symbol.resolution !== 'candidates' && symbol.resolution !== 'name') return undefined;
  const d = symbol.definitions.find((x) => x.file === file && x.declLine === line);
  if (!d) return undefined;
  const copies = d.bodyKey ? symbol.definitions.filter((x) => x !== d && x.bodyKey === d.bodyKey).length : 0;
  return { definition: d, name: symbol.name, ...(copies ? { copies } : {}) };
}

/** How long a hover's answer is kept for the same place (VS Code asks again as the mouse moves within a word). */
export const HOVER_CACHE_MS = 30_000;
const HOVER_CACHE_SIZE = 32;

/** Whether an answer may be kept: not one given because the provider was late (it may answer next time). */
export function keepable(phases: Partial<HoverPhases>): boolean {
  return phases.server !== 'late';
}

/**
 * Answers already given, per document version and place: an answer (or nothing) for a name's range,
 * nothing for an exact position. Cleared by the caller when any document changes or is saved, so a
 * definition edited elsewhere is never shown stale.
 */
export class HoverCache<T> {
  private entries: Array<{ doc: string; version: number; line: number; start: number; end: number; at: number; value: T | undefined }> = [];

  constructor(private readonly now: () => number = () => Date.now()) {}

  /** `{ value }` when an answer for this place is kept (value undefined: nothing to show), else undefined. */
  get(doc: string, version: number, line: number, character: number): { value: T | undefined } | undefined {
    const t = this.now();
    this.entries = this.entries.filter((e) => t - e.at < HOVER_CACHE_MS);
    const e = this.entries.find((x) => x.doc === doc && x.version === version && x.line === line && x.start <= character && character <= x.end);
    return e && { value: e.value };
  }

  /** Keeps an answer for the name's range on `line` (start..end inclusive of the end), or nothing for one position. */
  put(doc: string, version: number, line: number, start: number, end: number, value: T | undefined): void {
    this.entries.push({ doc, version, line, start, end, at: this.now(), value });
    if (this.entries.length > HOVER_CACHE_SIZE) this.entries.splice(0, this.entries.length - HOVER_CACHE_SIZE);
  }

  clear(): void {
    this.entries = [];
  }
}
