// Markdown rendering of a bench result (the JSON shape is documented in run.ts / the issue).
interface Metrics { r1: number; r3: number; r5: number; r10: number; mrr10: number; n: number }
interface CMetrics { id_recall: number; new_id_recall: number; n: number; n_new: number; latency_ms?: { p50: number; p95: number; p99: number } }
interface Pct { p50: number; p95: number; p99: number }
interface SystemResult { A: Record<string, Metrics>; B: Record<string, Metrics>; C: Record<string, CMetrics>; C_budgets?: Record<string, Record<string, CMetrics>>; latency_ms: Pct; latency_a_ms: Pct; index_s: number }
interface EGroup { em: number; es: number; offered: number; precision?: number; duplicated_suffix?: number; unbound_name?: number; n: number }
interface Result {
  systems: Record<string, SystemResult>;
  repos: Record<string, Record<string, number>>;
  E?: Record<string, Record<string, EGroup> & { latency_ms: Pct }>;
  E_suffix?: Record<string, Record<string, EGroup> & { latency_ms: Pct }>;
}

export function renderMarkdown(r: Result): string {
  const out: string[] = [];
  const names = Object.keys(r.systems);
  // `all`, then the languages in the order the tasks brought them.
  const groups = [...new Set(names.flatMap((s) => Object.keys(r.systems[s].C)))].filter((g) => !g.startsWith('repo:'));
  for (const proto of ['A', 'B'] as const) {
    out.push(`\n### Protocol ${proto}\n`, '| system | subset | n | R@1 | R@3 | R@5 | R@10 | MRR@10 |', '|---|---|---|---|---|---|---|---|');
    for (const g of groups) for (const s of names) {
      const m = r.systems[s][proto][g];
      if (m) out.push(`| ${s} | ${g} | ${m.n} | ${m.r1.toFixed(3)} | ${m.r3.toFixed(3)} | ${m.r5.toFixed(3)} | ${m.r10.toFixed(3)} | ${m.mrr10.toFixed(3)} |`);
    }
  }
  out.push('\n### Protocol C (1,024 p50k_base tokens)\n', '| system | subset | id recall | new-id recall | n | n new |', '|---|---|---|---|---|---|');
  for (const g of groups) for (const s of names) {
    const c = r.systems[s].C[g];
    if (c) out.push(`| ${s} | ${g} | ${c.id_recall.toFixed(3)} | ${c.new_id_recall.toFixed(3)} | ${c.n} | ${c.n_new} |`);
  }
  const budgets = [...new Set(names.flatMap((s) => Object.keys(r.systems[s].C_budgets ?? {})))].sort((a, b) => Number(a) - Number(b));
  if (budgets.length > 1 || (budgets.length === 1 && budgets[0] !== '1024')) {
    out.push('\n### Protocol C new-identifier recall per budget (p50k_base tokens)\n', `| system | subset | ${budgets.join(' | ')} | n new |`, `|---|---|${budgets.map(() => '---').join('|')}|---|`);
    for (const g of groups) for (const s of names) {
      const cb = r.systems[s].C_budgets;
      if (cb?.[budgets[0]]?.[g]) out.push(`| ${s} | ${g} | ${budgets.map((b) => cb[b][g].new_id_recall.toFixed(3)).join(' | ')} | ${cb[budgets[0]][g].n_new} |`);
    }
  }
  out.push('\n### Query latency (ms; C = product path, A = ranking the protocol corpus)\n', '| system | C p50 | C p95 | C p99 | A p50 | A p95 | A p99 | index s |', '|---|---|---|---|---|---|---|---|');
  for (const s of names) {
    const { latency_ms: l, latency_a_ms: a } = r.systems[s];
    out.push(`| ${s} | ${l.p50} | ${l.p95} | ${l.p99} | ${a.p50} | ${a.p95} | ${a.p99} | ${r.systems[s].index_s} |`);
  }
  if (r.E && Object.keys(r.E).length) {
    out.push('\n### Protocol E (built-in completion, no language model; keystroke-to-items latency in ms)\n', '| source | subset | n | EM | ES | offered | precision | p50 ms | p95 ms |', '|---|---|---|---|---|---|---|---|---|');
    // `api`: the multi-line API tasks (tasks_api.jsonl); latency is measured on the line tasks.
    for (const [src, e] of Object.entries(r.E)) for (const g of [...groups, 'api']) {
      const m = e[g] as EGroup | undefined;
      if (m) out.push(`| ${src} | ${g} | ${m.n} | ${m.em.toFixed(3)} | ${m.es.toFixed(3)} | ${m.offered.toFixed(3)} | ${m.precision?.toFixed(3) ?? '–'} | ${e.latency_ms.p50} | ${e.latency_ms.p95} |`);
    }
  }
  if (r.E_suffix && Object.keys(r.E_suffix).length) {
    out.push('\n### Protocol E with the text after the cursor (E_suffix; rates over offered suggestions)\n', '| source | subset | n | EM | ES | offered | precision | duplicated suffix | unbound name | p50 ms | p95 ms |', '|---|---|---|---|---|---|---|---|---|---|---|');
    for (const [src, e] of Object.entries(r.E_suffix)) for (const g of [...groups, 'api']) {
      const m = e[g] as EGroup | undefined;
      if (m) out.push(`| ${src} | ${g} | ${m.n} | ${m.em.toFixed(3)} | ${m.es.toFixed(3)} | ${m.offered.toFixed(3)} | ${m.precision?.toFixed(3) ?? '–'} | ${m.duplicated_suffix?.toFixed(3) ?? '–'} | ${m.unbound_name?.toFixed(3) ?? '–'} | ${e.latency_ms.p50} | ${e.latency_ms.p95} |`);
    }
  }
  const repos = Object.keys(r.repos);
  if (repos.length) {
    const cols = Object.keys(r.repos[repos[0]]);
    out.push('\n### Engine index per repository\n', `| repo | ${cols.join(' | ')} |`, `|---|${cols.map(() => '---').join('|')}|`);
    for (const name of repos) out.push(`| ${name} | ${cols.map((c) => r.repos[name][c]).join(' | ')} |`);
  }
  const repoGroups = Object.keys(r.systems[names[0]].C).filter((g) => g.startsWith('repo:'));
  out.push('\n### Per repository: protocol A MRR@10 / C new-id recall / C query p95 ms\n', `| repo | ${names.join(' | ')} |`, `|---|${names.map(() => '---').join('|')}|`);
  for (const g of repoGroups) out.push(`| ${g.slice(5)} | ${names.map((s) => `${r.systems[s].A[g]?.mrr10.toFixed(3) ?? '–'} / ${r.systems[s].C[g].new_id_recall.toFixed(3)} / ${r.systems[s].C[g].latency_ms?.p95 ?? '–'}`).join(' | ')} |`);
  return out.join('\n') + '\n';
}
