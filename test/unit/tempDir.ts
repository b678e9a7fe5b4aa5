// Temporary folders for tests, in one place: each is made under the system's temp folder with a
// prefix naming its test, and whatever a test leaves behind is removed when the process exits.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const made: string[] = [];
process.on('exit', () => {
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
});

/** A new empty folder, `PREFIX` + random characters, removed at exit if the test has not. */
export function tempDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  made.push(dir);
  return dir;
}
