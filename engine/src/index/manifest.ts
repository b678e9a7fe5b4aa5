// manifest.json, the index's single commit point (written last, atomically): which immutable
// files make up the index now. Each component — the tables and the three lexical fields — has a
// base file (a full image, written when the component was merged) and takes the parts that
// delta segments (deltaFile.ts) hold for it from sequence number `from` on, replayed in order.
// A save writes new files under the next sequence number and then this manifest; files it no
// longer lists are deleted after it is written (index/indexStore.ts). Layout, merge policy and the
// reasons: ARCHITECTURE.md (Storage) and PARAMS.md (Index segments).
import type { VectorCommit } from '../vector/persist';
import { FORMAT_VERSIONS } from '../store/formatVersions';

/** The index's format (its history: formatVersions.ts); older indexes are rebuilt. */
export const STORE_FORMAT_VERSION = FORMAT_VERSIONS.store;
export const MANIFEST_FILE = 'manifest.json';

/** The lexical fields and the prefix of their base files. */
export const LEXICAL_FILES = { lexical: 'lexical', docField: 'lexical-doc', normalized: 'lexical-norm' } as const;
export type LexicalField = keyof typeof LEXICAL_FILES;
export type Component = 'tables' | LexicalField;
export const COMPONENTS: readonly Component[] = ['tables', 'lexical', 'docField', 'normalized'];
const PREFIX: Record<Component, string> = { tables: 'tables', ...LEXICAL_FILES };

/**
 * The team index's downloads (team/sync.ts), inside the index directory: segment files named by
 * their sha256, linked into place when a published commit is installed. Never index files.
 */
export const TEAM_SYNC_DIR = 'team-sync';

/** The folder of the vectors' files, inside the index directory. */
export const VECTORS_DIR = 'vectors';

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
  /**
   * The vector index (dense on): its lists file (rewritten only when the lists were rebuilt) and
   * this save's pending file, named by sequence under VECTORS_DIR, with the counts that check
   * them; listed and digested like every other file, so vectors commit with the rest.
   */
  vectors?: VectorCommit;
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
/** Names of a save's vector files inside VECTORS_DIR (the lists only when rebuilt since the last save). */
export const vectorFileNames = (seq: number) => ({ lists: `lists-${seq}.ivf`, pending: `pending-${seq}.bin` });
/** A vector file's name as the manifest lists it (relative to the index directory). */
export const vectorFilePath = (name: string) => `${VECTORS_DIR}/${name}`;
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
    && m.deltas.every((d) => typeof d.file === 'string' && Number.isSafeInteger(d.seq))
    && (m.vectors === undefined || vectorsListed(m.vectors, m.digests));
  return ok ? m : 'manifest.json is malformed';
}

/** Whether a vector commit names its files plainly and the manifest digests each as the commit does. */
function vectorsListed(v: VectorCommit, digests: Record<string, string>): boolean {
  const names = [v.pendingFile, ...(v.kind === 'ivf' ? [v.lists] : [])];
  return !!v.files && names.every((n) => typeof n === 'string' && /^[\w.-]+$/.test(n) && digests[vectorFilePath(n)] === v.files[n]?.sha256);
}

/** The vector files a commit lists, relative to the index directory. */
function vectorFiles(m: Manifest): string[] {
  if (!m.vectors) return [];
  return [...(m.vectors.lists ? [m.vectors.lists] : []), m.vectors.pendingFile].map(vectorFilePath);
}

/** Every file the manifest lists. */
export function listedFiles(m: Manifest): string[] {
  return [...COMPONENTS.map((c) => m.bases[c].file), ...m.deltas.map((d) => d.file), ...vectorFiles(m)];
}

/** What an engine needs of an index: the embedding model behind its vectors and its optional fields. */
export interface IndexExpectation {
  modelId: string | null;
  dim: number;
  fields: string[];
}

/** Why an index with this manifest cannot serve an engine that expects `expect`; undefined when it can. */
export function incompatibility(m: Pick<Manifest, 'modelId' | 'fields' | 'omittedForSize'>, expect: IndexExpectation): string | undefined {
  const omittedForSize = m.omittedForSize ?? [];
  const missingFields = expect.fields.filter((f) => !(m.fields ?? []).includes(f) && !omittedForSize.includes(f));
  if (missingFields.length) return `index was built without the ${missingFields.join(', ')} field(s) the settings now use`;
  if (m.modelId !== expect.modelId) return `index was built with model ${m.modelId ?? 'none'}, now ${expect.modelId ?? 'none'}`;
  return undefined;
}
