// The UI benchmark's result (run.ts): the samples of session 2 and the floor pass summarised into
// the result file's object, the extension's own times beside them, and its Markdown table.
import { execFileSync } from 'node:child_process';
import * as os from 'node:os';
import * as path from 'node:path';
import type { TimingRecord } from '../../../extension/src/timings';
import { percentile, type Place, type UiTask } from './places';

const ROOT = path.resolve(__dirname, '../../../..');

/** What the result records of the run's arguments. */
export interface RunInfo {
  label: string;
  onlyHover: boolean;
  repo: string;
  seed: number;
  typeDelay: number;
  hovers: number;
}

export type GhostSample = { id: string; ms?: number; firstMs?: number; through?: boolean; secondMs?: number; secondThrough?: boolean; text?: string; keyAt?: number; shownAt?: number };
export type RelatedSample = { ms?: number; rows: number; dups: number; dupRows?: string[] };
export type HoverSample = { kind: Place['kind']; ms?: number; shown: boolean; text: string };

/** What session 2 measures at the positions. */
export interface Samples {
  ghost: GhostSample[];
  related: RelatedSample[];
  hovers: HoverSample[];
  nonIdent: number;
}

export interface FirstGhost { firstGhostEpoch?: number; firstKeystrokeMs?: number; firstTries: number }

export interface Floor { floor: number[]; floorById: Map<string, number>; floorRelated: number[]; floorHover: number[] }

/** Count and percentiles of the samples. */
export const spread = (xs: number[]) => ({ n: xs.length, p50: percentile(xs, 50), p95: percentile(xs, 95) });

/** The extension's own times per kind of request, engine and rpc apart. */
export const providerSplit = (rs: TimingRecord[]) => ({
  n: rs.length,
  total_p50: percentile(rs.map((r) => r.ms), 50), total_p95: percentile(rs.map((r) => r.ms), 95),
  engine_p50: percentile(rs.map((r) => r.engineMs), 50), engine_p95: percentile(rs.map((r) => r.engineMs), 95),
  rpc_p50: percentile(rs.map((r) => r.rpcMs), 50), rpc_p95: percentile(rs.map((r) => r.rpcMs), 95),
  rest_p50: percentile(rs.map((r) => r.ms - r.rpcMs), 50), rest_p95: percentile(rs.map((r) => r.ms - r.rpcMs), 95),
});

/** Ghost text by keystroke: the first key's request, the second typed along into ghost text, the second's request. */
export function ghostKeys(ghost: GhostSample[]): Record<string, unknown> {
  return {
    ghost_first_key_request: spread(ghost.flatMap((g) => (g.firstMs !== undefined ? [g.firstMs] : []))),
    ghost_typed_along: { ...spread(ghost.flatMap((g) => (g.secondMs !== undefined && g.secondThrough ? [g.secondMs] : []))), first_key_typed_into_ghost: ghost.filter((g) => g.through).length },
    ghost_second_key_request: spread(ghost.flatMap((g) => (g.secondMs !== undefined && !g.secondThrough ? [g.secondMs] : []))),
  };
}

/** The floor's figures (floorPass) beside the ghost text measured at the same positions. */
export function floorResult(f: Floor, ghost: GhostSample[], positions: number): Record<string, unknown> {
  return {
    method: 'the same positions, keystrokes, palette and mouse moves with RepoRecall completions and hover off and test/bench/ui/floor-extension answering at once (fixed ghost text, hover, a QuickPick of 10 rows): VS Code alone',
    ghost: { n: positions, shown: f.floor.length, p50: percentile(f.floor, 50), p95: percentile(f.floor, 95) },
    list: spread(f.floorRelated),
    hover_visible: spread(f.floorHover),
    ghost_samples: Object.fromEntries(f.floorById),
    ghost_over_floor: overFloor(ghost, f.floorById),
  };
}

export const METHOD = 'code-server 4.100.3 + chromium (playwright-core); ghost: the Delete keystroke that empties the line where real code continues -> first DOM change showing ghost text (2 s timeout); after a 1 s pause the first two characters of the real line are typed {typeDelay} ms apart and reported apart (a keystroke into ghost text already showing is typed_along: VS Code serves it from that suggestion); hover: mouse move -> visible RepoRecall hover (editor.hover.delay 150 included); find_related: Enter in the palette -> complete list';

/** The result file's object: the user's figures first, then how they were taken and the extension's own times (meta). */
export function uiResult(args: RunInfo, tasks: UiTask[], m: { samples: Samples; first: FirstGhost & { firstGhostMs: number | null }; floor: Floor; recs: TimingRecord[]; buildS: number }): Record<string, unknown> {
  const { samples: { ghost, related, hovers }, first, floor: f, recs, buildS } = m;
  const shownComplete = recs.filter((r) => r.kind === 'complete' && r.outcome === 'shown');
  const hoverRecs = recs.filter((r) => r.kind === 'hover' && r.outcome === 'shown');
  const outcomes: Record<string, number> = {};
  for (const r of recs.filter((r) => r.kind === 'complete')) outcomes[r.outcome ?? '?'] = (outcomes[r.outcome ?? '?'] ?? 0) + 1;
  const ghostMs = ghost.flatMap((g) => (g.ms !== undefined ? [g.ms] : []));
  const relMs = related.flatMap((r) => (r.ms !== undefined ? [r.ms] : []));
  const identHovers = hovers.filter((h) => h.kind === 'identifier' && h.ms !== undefined).map((h) => h.ms!);
  const nonIdentHovers = hovers.filter((h) => h.kind !== 'identifier');
  return {
    ghost: { n: tasks.length, shown: ghostMs.length, p50: percentile(ghostMs, 50), p95: percentile(ghostMs, 95) },
    first_ghost_ms: first.firstGhostMs,
    find_related: { n: related.length, p50: percentile(relMs, 50), p95: percentile(relMs, 95), duplicate_rows: related.reduce((n, r) => n + r.dups, 0) },
    hover: {
      n: identHovers.length,
      provide_p50: percentile(hoverRecs.map((r) => r.ms), 50), provide_p95: percentile(hoverRecs.map((r) => r.ms), 95),
      visible_p50: percentile(identHovers, 50), visible_p95: percentile(identHovers, 95),
      on_non_identifier: `${nonIdentHovers.filter((h) => h.shown).length}/${nonIdentHovers.length}`,
    },
    meta: {
      label: args.label, only_hover: args.onlyHover, repo: args.repo, positions: tasks.length, seed: args.seed, date: new Date().toISOString(),
      commit: (() => { try { return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT }).toString().trim(); } catch { return ''; } })(),
      host: `${os.cpus().length} cores, load ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}`,
      method: METHOD.replace('{typeDelay}', String(args.typeDelay)),
      first_ghost_keystroke_ms: first.firstKeystrokeMs !== undefined ? Math.round(first.firstKeystrokeMs) : null,
      first_ghost_tries: first.firstTries + 1,
      ...ghostKeys(ghost),
      hover_non_identifier_by_kind: Object.fromEntries(['keyword', 'comment', 'string', 'number'].map((k) => [k, `${nonIdentHovers.filter((h) => h.kind === k && h.shown).length}/${nonIdentHovers.filter((h) => h.kind === k).length}`])),
      completion_requests: outcomes,
      complete_shown: providerSplit(shownComplete),
      complete_wait_p50: percentile(shownComplete.map((r) => Number(r.detail?.waitMs ?? 0)), 50),
      // Served by the request started at the keystroke (completionPrefetch.ts): engine and rpc are that request's.
      complete_shown_prefetched: shownComplete.filter((r) => r.detail?.prefetched === 1).length,
      hover_provider: providerSplit(hoverRecs),
      hovers_per_position: args.hovers,
      hover_phases: hoverPhases(hoverRecs),
      hover_beside: hoverBeside(hoverRecs, recs),
      hover_records: hoverRecs.map(compactRecord),
      find_related_provider: providerSplit(recs.filter((r) => r.kind === 'findRelated')),
      find_related_rows: related.map((r) => r.rows),
      find_related_duplicates: related.flatMap((r) => r.dupRows ?? []).slice(0, 20),
      ghost_path: ghostPath(ghost, recs),
      floor: floorResult(f, ghost, tasks.length),
      ghost_samples: ghost,
      session1_s: Math.round(buildS),
    },
  };
}

/**
 * A completion served from the request started at the keystroke spent its engine and rpc time in
 * that `prefetch` record: they are credited to the completion (the prefetch that ended last before
 * it answered), so the split into engine and the rest stays comparable with requests made by the provider.
 */
export function withPrefetch(recs: TimingRecord[]): TimingRecord[] {
  const prefetches = recs.filter((r) => r.kind === 'prefetch');
  return recs.map((r) => {
    if (r.kind !== 'complete' || r.detail?.prefetched !== 1) return r;
    const end = r.at + r.ms;
    const p = prefetches.filter((x) => x.at <= end && x.at + x.ms <= end + 5).pop();
    return p ? { ...r, engineMs: p.engineMs, rpcMs: p.rpcMs, calls: p.calls } : r;
  });
}

/** Ghost text minus VS Code alone at the same position, where both showed: what RepoRecall adds there (p50/p95/max, and its positions over 100 ms). */
export function overFloor(ghost: Array<{ id: string; ms?: number }>, floorById: Map<string, number>): Record<string, unknown> {
  const pairs = ghost.flatMap((g) => (g.ms !== undefined && floorById.has(g.id) ? [{ id: g.id, over: g.ms - floorById.get(g.id)! }] : []));
  const xs = pairs.map((p) => p.over);
  return { n: xs.length, p50: percentile(xs, 50), p95: percentile(xs, 95), max: xs.length ? Math.round(Math.max(...xs) * 10) / 10 : null, over_100: pairs.filter((p) => p.over > 100).map((p) => `${p.id} +${p.over.toFixed(0)}`) };
}

/**
 * Where keystroke -> ghost text goes: to the provider being called (VS Code's own 50 ms debounce,
 * the edit and the request crossing to the extension host), the provider (our debounce wait, the
 * engine round trip), and from its answer to the DOM (back to the page, rendering); and whether a
 * live index update of an unsaved buffer ran at the same time.
 */
export function ghostPath(ghost: Array<{ ms?: number; keyAt?: number; shownAt?: number }>, recs: TimingRecord[]): Record<string, unknown> {
  const completes = recs.filter((r) => r.kind === 'complete' && (r.outcome === 'shown' || r.outcome === 'cache'));
  const updates = recs.filter((r) => r.kind === 'updateFile');
  const rows: Array<{ total: number; toProvider: number; provider: number; wait: number; rpc: number; engine: number; afterProvider: number; duringUpdate: boolean }> = [];
  for (const g of ghost) {
    if (g.ms === undefined || g.keyAt === undefined || g.shownAt === undefined) continue;
    // The last request answered before the ghost text showed, started after the keystroke.
    const rec = completes.filter((r) => r.at >= g.keyAt! - 5 && r.at + r.ms <= g.shownAt! + 5).pop();
    if (!rec) continue;
    const end = rec.at + rec.ms;
    rows.push({
      total: g.ms, toProvider: rec.at - g.keyAt, provider: rec.ms, wait: Number(rec.detail?.waitMs ?? 0), rpc: rec.rpcMs, engine: rec.engineMs, afterProvider: g.shownAt - end,
      duringUpdate: updates.some((u) => u.at < end && u.at + u.ms > rec.at),
    });
  }
  const stat = (xs: number[]) => ({ p50: percentile(xs, 50), p95: percentile(xs, 95) });
  const parts = (rs: typeof rows) => ({
    n: rs.length, total: stat(rs.map((r) => r.total)), to_provider: stat(rs.map((r) => r.toProvider)), provider: stat(rs.map((r) => r.provider)),
    debounce_wait: stat(rs.map((r) => r.wait)), rpc: stat(rs.map((r) => r.rpc)), engine: stat(rs.map((r) => r.engine)), after_provider: stat(rs.map((r) => r.afterProvider)),
  });
  return { all: parts(rows), during_live_update: parts(rows.filter((r) => r.duringUpdate)), without_live_update: parts(rows.filter((r) => !r.duringUpdate)) };
}

export function markdown(r: Record<string, unknown>): string {
  const g = r.ghost as Record<string, unknown>;
  const f = r.find_related as Record<string, unknown>;
  const h = r.hover as Record<string, unknown>;
  const m = r.meta as Record<string, unknown> & { complete_shown: Record<string, unknown>; hover_provider: Record<string, unknown>; find_related_provider: Record<string, unknown> };
  const cs = m.complete_shown, hp = m.hover_provider, fp = m.find_related_provider;
  return [
    `UI benchmark ${m.label ? `(${m.label}) ` : ''}${m.repo}, ${m.positions} positions, seed ${m.seed}, commit ${m.commit}, ${m.date}`,
    '',
    '| measure | n | p50 ms | p95 ms | other |',
    '| --- | --- | --- | --- | --- |',
    `| keystroke -> ghost text | ${g.n} (shown ${g.shown}) | ${g.p50} | ${g.p95} | typed first key, new request ${JSON.stringify(m.ghost_first_key_request)}; second key: typed along ${JSON.stringify(m.ghost_typed_along)}, new request ${JSON.stringify(m.ghost_second_key_request)} |`,
    `| activation -> first ghost text | 1 | ${r.first_ghost_ms} | | keystroke -> ghost ${m.first_ghost_keystroke_ms} |`,
    `| completion provider (shown) | ${cs.n} | ${cs.total_p50} | ${cs.total_p95} | engine ${cs.engine_p50}/${cs.engine_p95}, rpc ${cs.rpc_p50}/${cs.rpc_p95}, debounce wait p50 ${m.complete_wait_p50}, started at the keystroke ${m.complete_shown_prefetched ?? 0} |`,
    ...ghostPathRows(m.ghost_path as ReturnType<typeof ghostPath> | undefined),
    ...floorRow(m.floor, 'ghost', 'keystroke -> ghost text', 'its 50 ms debounce, the trips to the extension host and back, rendering'),
    ...overFloorRow(m.floor),
    `| Find Related Code, Enter -> list | ${f.n} | ${f.p50} | ${f.p95} | duplicate rows ${f.duplicate_rows} |`,
    ...floorRow(m.floor, 'list', 'Enter -> list', 'a command filling a QuickPick at once'),
    `| Find Related Code provider | ${fp.n} | ${fp.total_p50} | ${fp.total_p95} | engine ${fp.engine_p50}/${fp.engine_p95} |`,
    `| hover, mouse rest -> visible | ${h.n} | ${h.visible_p50} | ${h.visible_p95} | on non-identifiers ${h.on_non_identifier} |`,
    ...floorRow(m.floor, 'hover_visible', 'hover, mouse rest -> visible', 'editor.hover.delay 150 included'),
    `| hover provider | ${hp.n} | ${h.provide_p50} | ${h.provide_p95} | engine ${hp.engine_p50}/${hp.engine_p95} |`,
    ...hoverPhaseRows(m.hover_phases as ReturnType<typeof hoverPhases> | undefined),
    ...hoverBesideRows(m.hover_beside as Record<string, { n: number; p50: number | null; p95: number | null }> | undefined),
    '',
  ].join('\n');
}

/** Where a shown hover's time went, from its record's detail (hover.ts): p50/p95 of each phase. */
export function hoverPhases(recs: TimingRecord[]): Record<string, unknown> {
  const num = (r: TimingRecord, k: string): number | undefined => (typeof r.detail?.[k] === 'number' ? (r.detail[k] as number) : undefined);
  const stat = (xs: Array<number | undefined>) => {
    const ys = xs.filter((x): x is number => x !== undefined && x >= 0);
    return { n: ys.length, p50: percentile(ys, 50), p95: percentile(ys, 95) };
  };
  const count = (k: string) => {
    const out: Record<string, number> = {};
    for (const r of recs) out[String(r.detail?.[k] ?? '?')] = (out[String(r.detail?.[k] ?? '?')] ?? 0) + 1;
    return out;
  };
  return {
    // From the provider being called: the gate and lookups before the requests, the engine's answer
    // (round trip), the definition provider's answer or budget, the wait for it after the engine's,
    // mapping its location (a second engine request), building the Markdown.
    before_requests: stat(recs.map((r) => { const f = num(r, 'flowMs'), d = num(r, 'renderMs'); return f !== undefined && d !== undefined ? r.ms - f - d : undefined; })),
    engine: stat(recs.map((r) => num(r, 'engineWaitMs'))),
    definition_provider: stat(recs.map((r) => num(r, 'serverMs'))),
    provider_wait_after_engine: stat(recs.map((r) => num(r, 'serverWaitMs'))),
    choose: stat(recs.map((r) => num(r, 'chooseMs'))),
    render: stat(recs.map((r) => num(r, 'renderMs'))),
    // Answers kept from an earlier request at the same name (hover.ts), and the provider without them.
    cached: recs.filter((r) => r.detail?.cached === 1).length,
    provider_uncached: stat(recs.filter((r) => r.detail?.cached !== 1).map((r) => r.ms)),
    provider_answer: count('server'),
    source: count('source'),
  };
}

/** What else the extension had the engine doing while a (not kept) hover ran: where its p95 goes. */
export function hoverBeside(hoverRecs: TimingRecord[], recs: TimingRecord[]): Record<string, unknown> {
  const overlaps = (h: TimingRecord, kinds: string[]): boolean => recs.some((r) => r !== h && kinds.includes(r.kind) && r.at < h.at + h.ms && r.at + r.ms > h.at);
  const seen = new Set<string>();
  const rows = hoverRecs.filter((r) => r.detail?.cached !== 1).map((r) => {
    const file = String(r.detail?.file ?? '');
    const first = !seen.has(file);
    seen.add(file);
    return { r, first, update: overlaps(r, ['updateFile']), completion: overlaps(r, ['complete', 'prefetch', 'warmup']) };
  });
  const stat = (xs: typeof rows) => ({ n: xs.length, p50: percentile(xs.map((x) => x.r.ms), 50), p95: percentile(xs.map((x) => x.r.ms), 95), engine_p95: percentile(xs.map((x) => Number(x.r.detail?.engineWaitMs ?? -1)), 95) });
  return {
    live_update: stat(rows.filter((x) => x.update)), completion: stat(rows.filter((x) => x.completion && !x.update)), alone: stat(rows.filter((x) => !x.update && !x.completion)),
    first_in_file: stat(rows.filter((x) => x.first)), later_in_file: stat(rows.filter((x) => !x.first)),
  };
}

/** A timing record as the result file keeps it (the hover's phases in its detail). */
const compactRecord = (r: TimingRecord) => ({ at: r.at, ms: r.ms, engineMs: r.engineMs, rpcMs: r.rpcMs, calls: r.calls, ...r.detail });

export function hoverPhaseRows(hp: ReturnType<typeof hoverPhases> | undefined): string[] {
  if (!hp || !(hp.engine as { n: number }).n) return [];
  const f = (k: string) => { const v = hp[k] as { p50: number | null; p95: number | null }; return `${v.p50?.toFixed(0)}/${v.p95?.toFixed(0)}`; };
  return [`| hover provider phases (p50/p95) | ${(hp.engine as { n: number }).n} | | | before requests ${f('before_requests')}, engine ${f('engine')}, definition provider ${f('definition_provider')} (waited after the engine ${f('provider_wait_after_engine')}), choose ${f('choose')}, render ${f('render')}; without the ${hp.cached} kept answers ${f('provider_uncached')}; provider ${JSON.stringify(hp.provider_answer)}; source ${JSON.stringify(hp.source)} |`];
}

/** A row for what VS Code alone takes (the floor pass), under the measure it bounds. */
export function floorRow(floor: unknown, key: string, what: string, why: string): string[] {
  const f = (floor as Record<string, { n: number; shown?: number; p50: number | null; p95: number | null }> | undefined)?.[key];
  return f ? [`| ${what}, floor: VS Code alone | ${f.shown ?? f.n} | ${f.p50} | ${f.p95} | ${why} |`] : [];
}

/** Ghost text minus the floor at the same position (the paired comparison, steadier than two p95s of ~30 samples). */
export function overFloorRow(floor: unknown): string[] {
  const o = (floor as { ghost_over_floor?: { n: number; p50: number | null; p95: number | null; max: number | null; over_100: string[] } } | undefined)?.ghost_over_floor;
  return o ? [`| ghost text minus floor, same position | ${o.n} | ${o.p50} | ${o.p95} | max ${o.max}; over 100 ms: ${o.over_100.join(', ') || 'none'} |`] : [];
}

export function ghostPathRows(gp: Record<string, unknown> | undefined): string[] {
  if (!gp) return [];
  const a = gp.all as Record<string, { p50: number | null; p95: number | null } | number>;
  const f = (k: string) => { const v = a[k] as { p50: number | null; p95: number | null }; return `${v.p50?.toFixed(0)}/${v.p95?.toFixed(0)}`; };
  const during = (gp.during_live_update as { n: number }).n;
  return [`| ghost path (p50/p95) | ${a.n} | | | to provider ${f('to_provider')}, provider ${f('provider')} (wait ${f('debounce_wait')}, rpc ${f('rpc')}, engine ${f('engine')}), answer -> DOM ${f('after_provider')}; ${during} during a live update |`];
}

export function hoverBesideRows(hb: Record<string, { n: number; p50: number | null; p95: number | null }> | undefined): string[] {
  if (!hb) return [];
  const f = (k: string): string => `${k.replace(/_/g, ' ')} ${hb[k].n}: ${hb[k].p50?.toFixed(0)}/${hb[k].p95?.toFixed(0)}`;
  return [`| hover provider beside (n: p50/p95) | | | | ${['live_update', 'completion', 'alone', 'first_in_file', 'later_in_file'].map(f).join('; ')} |`];
}
