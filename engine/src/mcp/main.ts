// `reporecall mcp` once its command line is read (cli.ts), and the entry of dist/mcp.js (bin.ts),
// the bundled server the editor offers VS Code (extension/src/features/agentTools.ts).
import * as path from 'path';
import { defaultIndexDir } from '../indexLocation';
import type { McpArgs } from '../util/cliArgs';
import { serveMcp } from './server';

/** Serves until the client leaves or `signal` aborts; stdout carries the protocol, so anything else printed goes to stderr. */
export async function runMcp(args: McpArgs, signal: AbortSignal): Promise<number> {
  console.log = console.error;
  const log = (line: string) => console.error(`reporecall mcp: ${line}`);
  await serveMcp({ root: args.root, indexDir: args.indexDir ?? defaultIndexDir(args.root), modelDir: args.model, dense: args.dense, excludePatterns: args.excludePatterns, secretPatterns: args.secretPatterns, log }, packageVersion(), signal);
  return 0;
}

/** The package's version, from out/engine/src/mcp or from dist/. */
function packageVersion(): string {
  for (const rel of ['../../../../package.json', '../package.json']) {
    try {
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- package.json is beside the bundle or the source, decided at run time
      return (require(path.join(__dirname, rel)) as { version: string }).version;
    } catch {
      // the other layout
    }
  }
  return '0.0.0';
}
