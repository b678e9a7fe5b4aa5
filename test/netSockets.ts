// Network sockets a process holds, read from Linux's /proc: the inodes behind its socket file
// descriptors, matched against the TCP and UDP tables. Used by the privacy tests to watch the
// engine's own process, where patching node's modules in the test's process would see nothing.
import * as fs from 'node:fs';

const TABLES = ['tcp', 'tcp6', 'udp', 'udp6'];

/** "proto local remote" per TCP/UDP socket `pid` has open (listening or connected); [] if none. */
export function networkSocketsOf(pid: number): string[] {
  const inodes = new Set<string>();
  for (const fd of fs.readdirSync(`/proc/${pid}/fd`)) {
    try {
      const m = /^socket:\[(\d+)\]$/.exec(fs.readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (m) inodes.add(m[1]);
    } catch {
      // closed between readdir and readlink
    }
  }
  const found: string[] = [];
  for (const table of TABLES) {
    const lines = fs.readFileSync(`/proc/${pid}/net/${table}`, 'utf8').trim().split('\n').slice(1);
    for (const line of lines) {
      const cols = line.trim().split(/\s+/);
      // sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode
      if (inodes.has(cols[9])) found.push(`${table} ${cols[1]} ${cols[2]}`);
    }
  }
  return found;
}

/** How many socket descriptors `pid` has of any kind (the IPC channel is one), to show the check sees them. */
export function socketCountOf(pid: number): number {
  return fs.readdirSync(`/proc/${pid}/fd`).filter((fd) => {
    try {
      return fs.readlinkSync(`/proc/${pid}/fd/${fd}`).startsWith('socket:');
    } catch {
      return false;
    }
  }).length;
}
