// Baseline `bm25`: the README's reference BM25 (Okapi k1 = 1.2, b = 0.75, identifier and number
// tokens lower-cased, no sub-token splitting; query = prefix_lines).
import { Bm25Index } from '../../../engine/src/lexical/bm25';
import type { Repo, Task } from '../split';
import type { BenchSystem, FragmentDoc } from './system';

const TOKEN = /[A-Za-z_][A-Za-z0-9_]*|\d+/g;
export const plainTokens = (text: string): string[] => (text.match(TOKEN) ?? []).map((t) => t.toLowerCase());

export class Bm25System implements BenchSystem {
  readonly name = 'bm25';
  private index = new Bm25Index({ k1: 1.2, b: 0.75 });

  async indexRepo(_repo: Repo, docs: FragmentDoc[]): Promise<void> {
    this.index = new Bm25Index({ k1: 1.2, b: 0.75 });
    await this.addDocs(docs);
  }
  async addDocs(docs: FragmentDoc[]): Promise<void> {
    for (const d of docs) this.index.add(d.id, plainTokens(d.text));
  }
  async removeDocs(ids: number[]): Promise<void> {
    for (const id of ids) this.index.remove(id);
  }
  async rank(task: Task, k: number): Promise<number[]> {
    return this.index.search(plainTokens(task.prefix_lines.join('\n')), k).map((r) => r.id);
  }
  indexBytes(): number {
    return this.index.serialize().length;
  }
}
