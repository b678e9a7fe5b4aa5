// Memory of a process by pid from Linux's /proc (the engine runs in its own process, so the
// bench's process.memoryUsage() no longer sees it).
import * as fs from 'fs';

export interface ProcMemory {
  /** Resident set size, its anonymous and file-backed parts, and the peak (VmHWM), in bytes. */
  rss: number;
  anon: number;
  file: number;
  peak: number;
}

export function procMemory(pid: number): ProcMemory | undefined {
  let status: string;
  try {
    status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return undefined; // gone, or not Linux
  }
  const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? NaN) * 1024;
  return { rss: kb('VmRSS'), anon: kb('RssAnon'), file: kb('RssFile'), peak: kb('VmHWM') };
}
