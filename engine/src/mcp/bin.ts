// dist/mcp.js: `node dist/mcp.js [DIR] [--index-dir D] [--model DIR] [--no-dense]`, the MCP server
// alone (no team index, no benchmark), as VS Code runs it from the extension's folder.
import { parseMcp, UsageError } from '../util/cliArgs';
import { closeOnSignals } from '../util/termination';
import { runMcp } from './main';

async function main(argv: string[]): Promise<number> {
  try {
    const args = parseMcp(argv);
    return await closeOnSignals((signal) => runMcp(args, signal));
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    console.error(`reporecall mcp: ${e.message}\nusage: node mcp.js [DIR] [--index-dir D] [--model DIR] [--no-dense] [--exclude GLOB]... [--deny GLOB]...`);
    return 2;
  }
}

main(process.argv.slice(2)).then((code) => process.exit(code), (err: Error) => {
  console.error(`reporecall mcp: ${err.stack ?? err}`);
  process.exit(1);
});
