// The structural rerank: multiplies fused scores of documents in files the current file imports,
// recently edited files, and files in its directory. Off by default (PARAMS.md).
import * as path from 'path';
import { importMatches } from '../enrich/callgraph';
import type { RetrievalQuery } from './query';

export const RERANK_WEIGHT = 0;
/** The weight a bench ablation gives the rerank when it turns it on alone. */
export const RERANK_ABLATION_WEIGHT = 0.5;

/** 1 for files the current file imports, 0.5 for recent files, 0.3 for its directory. */
export function structuralBoost(q: RetrievalQuery, recentFiles: string[]): (d: { file: string }) => number {
  const dir = path.posix.dirname(q.file);
  const cache = new Map<string, number>();
  const recent = new Set(recentFiles);
  return (d) => {
    let b = cache.get(d.file);
    if (b === undefined) {
      b = 0;
      if (d.file !== q.file) {
        if (q.imports.some((src) => importMatches(q.file, src, d.file))) b = 1;
        else if (recent.has(d.file)) b = 0.5;
        else if (path.posix.dirname(d.file) === dir) b = 0.3;
      }
      cache.set(d.file, b);
    }
    return b;
  };
}
