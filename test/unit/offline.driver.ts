// The engine as the editor runs it, for offline.test.ts to trace: EngineClient spawns the engine
// process (rpc/worker.ts), which builds the index with the shipped model and then is queried and
// fed edits for DURATION_MS, as a user typing would. Prints one JSON line of what it saw.
// Usage: node offline.driver.js WORKSPACE INDEX_DIR DURATION_MS
import * as fs from 'node:fs';
import * as path from 'node:path';
import { EngineClient } from '../../engine/src/rpc/client';

async function main(): Promise<void> {
  const [root, indexDir, duration] = process.argv.slice(2);
  const workerPath = path.resolve(__dirname, '../../engine/src/rpc/worker.js');
  const client = new EngineClient({ workerPath, init: { options: { root, indexDir } } });
  try {
    await client.whenReady();
    const built = await client.indexAll();
    const files = fs.readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts')).sort();
    const words = ['open the index', 'parse the query', 'merge segments', 'embed a batch', 'save the manifest', 'score candidates'];
    const end = Date.now() + Number(duration);
    let queries = 0;
    let edits = 0;
    for (let i = 0; Date.now() < end; i++) {
      const file = files[i % files.length];
      const text = fs.readFileSync(path.join(root, file), 'utf8');
      await client.updateFile(file, `${text}\nexport function offlineProbe${i}() { return ${i}; }\n`);
      edits++;
      const hits = await client.retrieve({ file, prefix: `// ${words[i % words.length]}\n`, line: 1, recentFiles: [file] }, { k: 5 });
      queries += hits.length ? 1 : 0;
      await new Promise((r) => setTimeout(r, 400));
    }
    await client.flush();
    const stats = await client.stats();
    console.log(JSON.stringify({ files: built.files, modelDir: stats.modelDir, modelWarning: stats.modelWarning ?? null, queries, edits, enginePid: client.enginePid }));
  } finally {
    await client.close();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
