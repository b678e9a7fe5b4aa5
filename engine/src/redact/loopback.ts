// Whether a model server is on this machine's loopback interface: requests there may skip
// redaction when the user says so (reporecall.redaction.loopback: false); every other one is redacted.

/** Whether a host name or address is on loopback: 127.0.0.0/8, ::1 (also IPv4-mapped), `localhost`. */
export function isLoopbackHost(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[|\]$/g, '').replace(/\.$/, '');
  if (h === 'localhost') return true;
  if (h === '::1' || h === '0:0:0:0:0:0:0:1') return true;
  const mapped = /^::ffff:([0-9a-f]{1,4}):[0-9a-f]{1,4}$/.exec(h); // IPv4-mapped, as URL writes it: ::ffff:7f00:1
  if (mapped) return parseInt(mapped[1], 16) >> 8 === 127;
  const v4 = h.startsWith('::ffff:') ? h.slice(7) : h;
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(v4);
  return !!m && m.slice(1).every((o) => Number(o) <= 255) && Number(m[1]) === 127;
}

/** Whether a request to `url` stays on this machine's loopback interface (an unparsable URL does not). */
export function isLoopbackUrl(url: string): boolean {
  try {
    return isLoopbackHost(new URL(url).hostname);
  } catch {
    return false;
  }
}
