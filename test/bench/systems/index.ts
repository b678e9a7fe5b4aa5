// The systems the bench knows, by name.
import type { BenchSystem } from './system';
import { Bm25System } from './bm25';
import { JaccardSystem } from './jaccard';

export interface SystemFactoryOptions {
  /** The project's model directory for `dense`/`engine` (default: the shipped model). */
  modelDir?: string;
  /** The USE-Lite reference model (for `dense-ref` / `engine-ref`). */
  referenceModelDir?: string;
  flags: Set<string>;
  argv: string[];
}

export const SYSTEM_NAMES = ['bm25', 'jaccard'];

export async function createSystems(names: string[], _opts: SystemFactoryOptions): Promise<BenchSystem[]> {
  const out: BenchSystem[] = [];
  for (const n of names) {
    if (n === 'bm25') out.push(new Bm25System());
    else if (n === 'jaccard') out.push(new JaccardSystem());
    else throw new Error(`unknown system '${n}' (known: ${SYSTEM_NAMES.join(', ')})`);
  }
  return out;
}
