// The workspace scanner: which files of a workspace get indexed, and why the others do not.
export { scanWorkspace, countSkips, type ScanResult, type ScanCallbacks } from './scanner';
export { classifyContent, classifyPath } from './classify';
// How the scanner's files are read as text (BOMs, invalid bytes, lone CRs), for every reader of them.
export { decodeSource, readSourceText } from '../util/sourceText';
export { isSecretPath, BUILTIN_SECRET_PATTERNS } from './secrets';
export { IgnoreRules, IGNORE_FILE_NAMES } from './ignoreRules';
export { IgnoreDecisionCache, IGNORE_CACHE_FILE, SavedIgnoreDecisions } from './ignoreCache';
export {
  DEFAULT_EXCLUDED_DIRS,
  DEFAULT_MAX_FILE_BYTES,
  CONTENT_SAMPLE_BYTES,
  type ScanOptions,
  type ContentCheck,
} from './options';
