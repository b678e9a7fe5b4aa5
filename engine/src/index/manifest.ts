// manifest.json, the index's single commit point (written last, atomically): which immutable
// files make up the index now. Each component — the tables and the three lexical fields — has a
// base file (a full image, written when the component was merged) and takes the parts that
// delta segments (deltaFile.ts) hold for it from sequence number `from` on, replayed in order.
// A save writes new files under the next sequence number and then this manifest; files it no
// longer lists are deleted after it is written (index/indexStore.ts). Layout, merge policy and the
// reasons: ARCHITECTURE.md (Storage) and PARAMS.md (Index segments).

/**
 * Bump when the layout of any index file or of the manifest changes; older indexes are rebuilt.
 * 4: tables.bin (binary columns) replaces chunks.json.
 * 5: chunk rows lose the unused 8-byte content hash (3.5 MB of memory at 100k files).
 * 6: segments — base files per component plus delta segments, listed by the manifest.
 * 7: tables bases are not deflated (tables.ts layout 2), so a save streams them from the columns.
 * 8: indexed text, signatures and docs have secrets replaced by `<redacted:rule>` (redact/).
 */
export const STORE_FORMAT_VERSION = 8;
export const MANIFEST_FILE = 'manifest.json';

/** The lexical fields and the prefix of their base files. */
export const LEXICAL_FILES = { lexical: 'lexical', docField: 'lexical-doc', normalized: 'lexical-norm' } as const;
export type LexicalField = keyof typeof LEXICAL_FILES;
export type Component = 'tables' | LexicalField;
export const COMPONENTS: readonly Component[] = ['tables', 'lexical', 'docField', 'normalized'];
const PREFIX: Record<Component, string> = { tables: 'tables', ...LEXICAL_FILES };

export interface BaseRef {
  file: string;
  /** Deltas with seq ≥ from hold this component's later changes. */
  from: number;
}

export interface Manifest {
  format: number;
  modelId: string | null;
  dim: number;
  files: number;
  chunks: number;
  savedAt: string;
  /** Sequence number of the save that wrote this manifest (file names carry theirs). */
  seq: number;
  bases: Record<Component, BaseRef>;
  /** Delta segments in save order. */
  deltas: Array<{ seq: number; file: string }>;
  /** sha256 of every file listed above. */
  digests: Record<string, string>;
  /** Optional lexical fields this index was built with (a config that needs another one rebuilds). */
  fields: string[];
  /**
   * Optional fields the settings asked for but the first build left out because the repository
   * was large (indexer/sizePolicy.ts). Kept with the index so that reopening it, or the
   * repository crossing the threshold later, never flips the decision and forces a rebuild.
   */
  omittedForSize?: string[];
}

export const baseFileName = (c: Component, seq: number) => `${PREFIX[c]}-${seq}.bin`;
export const deltaFileName = (seq: number) => `delta-${seq}.bin`;
/** Names a save writes (and their temp files): what garbage collection may delete when unlisted. */
export const STORE_FILE_PATTERN = new RegExp(`^(${[...Object.values(PREFIX), 'delta'].join('|')})(-\\d+)?\\.bin(\\.tmp-.*)?$|^${MANIFEST_FILE.replace('.', '\\.')}\\.tmp-`);

/** Parses and checks the manifest's shape; a reason string when it cannot be used. */
export function parseManifest(text: string): Manifest | string {
  let m: Manifest;
  try {
    m = JSON.parse(text) as Manifest;
  } catch (e) {
    return `manifest.json is unreadable (${(e as Error).message})`;
  }
  if (m.format !== STORE_FORMAT_VERSION) {
    return `index format ${m.format}, this version uses ${STORE_FORMAT_VERSION}${m.format < 6 ? ' (segments: a save writes only what changed)' : ''}`;
  }
  const ok = Number.isSafeInteger(m.seq) && m.bases && Array.isArray(m.deltas) && m.digests
    && COMPONENTS.every((c) => typeof m.bases[c]?.file === 'string' && Number.isSafeInteger(m.bases[c].from))
    && m.deltas.every((d) => typeof d.file === 'string' && Number.isSafeInteger(d.seq));
  return ok ? m : 'manifest.json is malformed';
}

/** Every file the manifest lists. */
export function listedFiles(m: Manifest): string[] {
  return [...COMPONENTS.map((c) => m.bases[c].file), ...m.deltas.map((d) => d.file)];
}
