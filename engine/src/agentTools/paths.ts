// A path an agent names, confined to the workspace: no `..`, no absolute path outside the folder,
// no symbolic link leading out of it (both sides compared after realpath), never a deny-listed
// file, and only files the index holds, so what .gitignore / .reporecallignore leave out is never
// read for an agent either.
import * as fs from 'fs';
import * as path from 'path';
import { isSecretPath } from '../scan/secrets';
import { ToolInputError } from './limits';

export interface PathPolicy {
  root: string;
  secretPatterns?: readonly string[];
  /** Whether the index holds the file (workspace-relative, forward slashes). */
  isIndexed(relPath: string): boolean;
}

/** The workspace-relative path (forward slashes) of `asked`, or a ToolInputError saying why not. */
export function workspaceFile(policy: PathPolicy, asked: string): string {
  if (asked.includes('\0')) throw new ToolInputError('the path holds a NUL character');
  const root = path.resolve(policy.root);
  const abs = path.isAbsolute(asked) ? path.normalize(asked) : path.join(root, asked);
  if (!path.isAbsolute(asked) && asked.split(/[\\/]/).includes('..')) throw new ToolInputError(`'${asked}' leaves the workspace ('..' is not allowed); give a path relative to the workspace root`);
  const rel = path.relative(root, abs);
  if (!rel || rel.startsWith('..') || path.isAbsolute(rel)) throw new ToolInputError(`'${asked}' is outside the workspace; give a path relative to the workspace root`);
  let real: string;
  let realRoot: string;
  try {
    real = fs.realpathSync(abs);
    realRoot = fs.realpathSync(root);
  } catch {
    throw new ToolInputError(`'${asked}' does not exist in the workspace`);
  }
  const realRel = path.relative(realRoot, real);
  if (!realRel || realRel.startsWith('..') || path.isAbsolute(realRel)) throw new ToolInputError(`'${asked}' is a link to a place outside the workspace`);
  const relPath = rel.split(path.sep).join('/');
  if (isSecretPath(relPath, policy.secretPatterns)) throw new ToolInputError(`'${asked}' is on the secret deny-list; it is never read for an agent`);
  if (!policy.isIndexed(relPath)) throw new ToolInputError(`'${asked}' is not an indexed source file (ignored, deny-listed, binary, too large or not a file)`);
  return relPath;
}
