// A tool's answer as text for a model: one header line per result (path:lines, symbol, why), its
// code in a fence. The same data also goes out as JSON (MCP structuredContent).
import type { CompletionContextResult } from './completionContext';
import type { FindDefinitionResult } from './findDefinition';
import type { FindRelatedResult } from './findRelated';
import type { SearchCodeResult } from './searchCode';
import type { AgentToolName } from './tools';

export function renderAnswer(name: AgentToolName, data: object): string {
  switch (name) {
    case 'search_code': return renderSearch(data as SearchCodeResult);
    case 'find_definition': return renderDefinition(data as FindDefinitionResult);
    case 'find_related': return renderRelated(data as FindRelatedResult);
    case 'completion_context': return renderContext(data as CompletionContextResult);
  }
}

function fence(text: string): string {
  const ticks = text.includes('```') ? '````' : '```';
  return `${ticks}\n${text}\n${ticks}`;
}

function ranks(signals: Record<string, number>): string {
  return Object.entries(signals).map(([s, r]) => `${s} #${r}`).join(', ');
}

function more(truncated: boolean): string {
  return truncated ? '\n(more results were left out to bound the answer; narrow the query or lower `limit`)' : '';
}

function renderSearch(r: SearchCodeResult): string {
  if (!r.results.length) return 'No matching code found.';
  return r.results.map((h, i) => {
    const terms = h.why.terms.length ? `; terms: ${h.why.terms.join(', ')}` : '';
    return `${i + 1}. ${h.path}:${h.startLine}-${h.endLine} ${h.kind}${h.symbol ? ` ${h.symbol}` : ''} (matched by ${ranks(h.why.signals)}${terms})\n${fence(h.excerpt)}`;
  }).join('\n\n') + more(r.truncated);
}

function renderDefinition(r: FindDefinitionResult): string {
  const head = `${r.resolution}: ${r.note}`;
  return [head, ...r.definitions.map((d, i) => `${i + 1}. ${d.path}:${d.startLine}-${d.endLine} ${d.kind}${d.doc ? `\n${d.doc}` : ''}\n${fence(d.excerpt)}`)].join('\n\n') + more(r.truncated);
}

function renderRelated(r: FindRelatedResult): string {
  const head = r.symbol === null ? 'No name at that position; code related to the code before it:' : `Code related to \`${r.symbol}\`${r.resolution ? ` (${r.resolution})` : ''}:`;
  if (!r.results.length) return `${head}\nnothing found.`;
  return [head, ...r.results.map((h, i) => `${i + 1}. ${h.path}:${h.startLine}-${h.endLine} ${h.kind}${h.symbol ? ` ${h.symbol}` : ''}: ${h.relation} (${ranks(h.signals)})\n${fence(h.excerpt)}`)].join('\n\n') + more(r.truncated);
}

function renderContext(r: CompletionContextResult): string {
  const head = `Context for a completion at ${r.path}:${r.line}:${r.column}: ${r.snippets.length} snippets, ${r.usedTokens} of ${r.budgetTokens} tokens.`;
  return [head, ...r.snippets.map((s) => `${s.path}:${s.startLine}-${s.endLine}${s.symbol ? ` ${s.symbol}` : ''}\n${fence(s.text)}`)].join('\n\n');
}
