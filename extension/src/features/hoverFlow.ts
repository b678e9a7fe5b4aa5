// The hover's requests and how they meet (vscode-free, unit-tested): the engine's symbol request and
// the language's definition provider run side by side; the provider's answer within its budget
// wins, the engine's resolver is the fallback (definitionChoice.ts). Each phase is timed for
// bench:ui (the record's detail, timings.ts).
import type { DefinitionAt, RetrievedChunk, SymbolInfo } from '../../../engine/src/public';
import { chooseDefinition, type DefinitionChoice, type ServerAnswer } from './definitionChoice';

export interface HoverRequests {
  /** The engine's name at the position and the chunks found for it (null: no repository name there, or a local). */
  engine: Promise<{ symbol: SymbolInfo; chunks: RetrievedChunk[] } | null>;
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
  /** What the provider gave: a location, nothing in time, or not awaited. */
  server: 'at' | 'none' | 'not awaited';
}

export interface HoverFlowResult {
  found: { symbol: SymbolInfo; chunks: RetrievedChunk[] };
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
  phases.waitMs = 0;
  phases.chooseMs = 0;
  // A local or no repository name: nothing to show, whatever the provider says.
  if (!found || req.cancelled()) return (phases.server = 'not awaited'), undefined;
  const answer = await server;
  phases.serverMs = serverAt;
  phases.waitMs = Math.max(0, (serverAt ?? engineDone) - engineDone);
  phases.server = answer.kind;
  const c0 = now();
  const choice = await chooseDefinition(found.symbol, rel, answer, req.relPathOf, req.describe);
  phases.chooseMs = now() - c0;
  if (!choice || req.cancelled()) return undefined;
  return { found, choice };
}
