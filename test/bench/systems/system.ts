// What every benchmarked retrieval system implements. Systems rank documents that the harness
// gives them (the protocol's 20-line fragments), so all systems see the same corpus.
import type { Repo, Task } from '../split';
import type { Fragment } from '../protocols';

export interface FragmentDoc extends Fragment {
  id: number;
  /** The fragment's own lines joined by \n (the fair-play rule: nothing outside them). */
  text: string;
}

export interface BenchSystem {
  readonly name: string;
  /** Indexes a repository's corpus. */
  indexRepo(repo: Repo, docs: FragmentDoc[]): Promise<void>;
  /** Protocol A/C: the task file's fragments change per task. */
  addDocs(docs: FragmentDoc[]): Promise<void>;
  removeDocs(ids: number[]): Promise<void>;
  /**
   * Names under which results are reported. A system with several variants (e.g. the engine with
   * each stage on and off) reports one result per variant from the same index and the same task
   * loop, so variants are compared under identical conditions. Default: [name].
   */
  readonly outputs?: string[];
  /**
   * Best-first document ids for the task's query (per output name when it has variants).
   * `exclude`: the documents the protocol does not count (those over the query window). The
   * product knows where the cursor is and keeps those out of every signal's list before fusing
   * (Engine.retrieve's `accept`); a system that fuses lists does the same with this.
   */
  rank(task: Task, k: number, exclude?: (id: number) => boolean): Promise<number[] | Record<string, number[]>>;
  /**
   * Protocol C override: the system builds its own context from the leak-free editor state
   * (the engine does, through its product path). When absent the harness ranks fragments.
   */
  context?(task: Task, budgetTokens: number): Promise<string[] | Record<string, string[]>>;
  /**
   * Whether `rank` ranks the protocol's fragments (protocols A and B). False for systems whose
   * pipeline has no such step (definition lookups, neighbour-file windows): they report C only.
   */
  readonly ranksFragments?: boolean;
  /** Whether `context` depends on the budget (then it is asked once per --budgets budget, else once and cut). */
  readonly budgetAware?: boolean;
  /** When set by `context`, the query time alone (excluding editor-state updates). */
  lastQueryMs?: number | Record<string, number>;
  /**
   * Protocol E: the system's completion for the leak-free editor state, per output name, with
   * the time from request to answer (keystroke-to-items, without the editor's debounce).
   */
  /** Protocol E: completions at the task's cursor; with `suffix`, the editor also holds that text after the cursor (E_suffix). */
  complete?(task: Task, suffix?: string): Promise<Record<string, { text: string; ms: number; info?: Record<string, unknown> }>>;
  /** Bytes the system's index would take on disk (0 when it keeps nothing). */
  indexBytes?(): number;
  close?(): Promise<void>;
}
