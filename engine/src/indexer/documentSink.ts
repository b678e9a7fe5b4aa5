// Where both indexing pipelines of workspaceIndex.ts (the cold build and live updates) put the
// documents of the files they index: batches of chunk texts are embedded, added to the index and
// handed to the tuning's sink; a file's row is set once its chunks are in the index, so a save
// meanwhile (a timer's) commits it gone, never without them.
import type { IndexProgress } from '../api';
import type { HybridIndex } from '../retrieve/hybrid';
import type { Breather } from '../util/breathe';
import type { DocumentItem } from './documents';
import type { IndexedSink } from './indexedSink';

export interface DocumentSinkOptions {
  /** The index the documents go to (read at each batch). */
  index: () => HybridIndex;
  /** Embeds a batch's texts; absent without a model. */
  embed: ((texts: string[]) => Promise<Float32Array[]>) | undefined;
  model: { modelId: string; dim: number } | undefined;
  /** Before a batch of `count` is added: make room in slices (a merge due) rather than block inside add. */
  beforeAdd?: (count: number) => Promise<void>;
  /** Pauses for the event loop during a vector rebuild. */
  breather: Breather;
  /** Chunks per embedding batch. */
  batch: number;
  /** Chunks the pipeline will add, for progress. */
  total: number;
  onProgress?: (p: IndexProgress) => void;
  onIndexed?: IndexedSink;
}

export class DocumentSink {
  private items: Array<DocumentItem & { fileHash: string }> = [];
  private readonly rows: Array<() => void> = [];
  private embedded = 0;
  private readonly opts: DocumentSinkOptions;

  constructor(opts: DocumentSinkOptions) {
    this.opts = opts;
  }

  /** Queues a chunk's document; a full batch is embedded and added at once. */
  async push(item: DocumentItem, fileHash: string): Promise<void> {
    this.items.push({ ...item, fileHash });
    if (this.items.length >= this.opts.batch) await this.flush();
  }

  /** Sets a file's row once the chunks queued so far are in the index. */
  afterChunks(setRow: () => void): void {
    this.rows.push(setRow);
  }

  /** Adds what is queued, then sets the rows waiting for it. */
  async flush(): Promise<void> {
    await this.addQueued();
    for (const setRow of this.rows.splice(0)) setRow();
  }

  private async addQueued(): Promise<void> {
    const items = this.items;
    if (!items.length) return;
    const { embed, breather, onIndexed } = this.opts;
    const vecs = embed && (await embed(items.map((i) => i.text)));
    // Folding pending vectors into the lists, or lexical documents into a base, takes seconds at scale; done here, it pauses for the event loop instead of blocking inside add.
    const vectors = this.opts.index().vectors;
    if (vecs && vectors?.wouldRebuildOnAdd(items.length)) await vectors.rebuildAsync(() => breather.breathe());
    await this.opts.beforeAdd?.(items.length);
    const index = this.opts.index();
    items.forEach((it, i) => index.add({ ...it.chunk, indexText: it.text, code: it.code, docText: it.docText, vector: vecs?.[i] }));
    if (onIndexed) await onIndexed.chunks(items.map((it, i) => ({ ...it, vector: vecs?.[i] })), this.opts.model);
    this.embedded += items.length;
    this.opts.onProgress?.({ phase: 'embed', done: this.embedded, total: this.opts.total });
    this.items = [];
  }
}
