// The retrieval signals, in fusion order. Adding a signal: a file in signals/ and a line here; its
// weight, optional field and ablation weight come from its declaration (weights.ts, hybrid.ts and
// the bench's --ablation read them from this list).
import { bm25 } from './signals/bm25';
import { recent } from './signals/recent';
import { dense } from './signals/dense';
import { symbol } from './signals/symbol';
import { intent } from './signals/intent';
import { docField } from './signals/docField';
import { normalized } from './signals/normalized';
import { next } from './signals/next';
import { expand } from './signals/expand';
import { hyde } from './signals/hyde';

export const SIGNALS = [bm25, recent, dense, symbol, intent, docField, normalized, next, expand, hyde] as const;

export type SignalName = (typeof SIGNALS)[number]['name'];
