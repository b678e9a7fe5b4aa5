// The indexer's scan of its workspace: the engine's scan options, and the per-directory ignore
// decisions kept beside the index (scan/ignoreCache.ts), so a reopen does not match every path again.
import type { EngineOptions } from '../api';
import { SavedIgnoreDecisions, scanWorkspace, type ScanResult } from '../scan';

export class WorkspaceScan {
  private readonly decisions: SavedIgnoreDecisions;
  private warned = new Set<string>();

  /** `mayWrite`: whether this engine writes the index (only its writer saves the decisions). */
  constructor(indexDir: string, private readonly log: (line: string) => void, mayWrite: () => boolean) {
    this.decisions = new SavedIgnoreDecisions(indexDir, log, mayWrite);
  }

  async scan(opts: EngineOptions, signal?: AbortSignal): Promise<ScanResult> {
    const scan = await scanWorkspace(opts.root, {
      maxFileBytes: opts.maxFileBytes,
      excludePatterns: opts.excludePatterns,
      secretPatterns: opts.secretPatterns,
      extensions: opts.extensions,
      contentCheck: 'none',
      signal,
      ignoreCache: this.decisions.forScan(),
    });
    this.decisions.scanned();
    // Said once per engine in the log; IndexStats.scanWarnings carries them for the status.
    for (const w of scan.warnings) if (!this.warned.has(w)) this.log(`ignore rules: ${w}`);
    this.warned = new Set(scan.warnings);
    return scan;
  }
}
