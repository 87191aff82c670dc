/** Loopback and Host-header helpers shared by the servers' "open on loopback only" rules and the codec server. */

/** 127.0.0.0/8, ::1 (bracketed or not), ::ffff:127.x and localhost. Undefined or empty is not loopback. */
export function isLoopbackHost(host: string | undefined): boolean {
  if (!host) return false;
  const bare = host.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  return (
    bare === 'localhost' ||
    bare === '::1' ||
    /^127(\.\d{1,3}){3}$/.test(bare) ||
    /^::ffff:127(\.\d{1,3}){3}$/.test(bare)
  );
}

/** The host name of a Host header (port dropped, IPv6 brackets kept off, lower case); undefined when malformed. */
export function hostHeaderName(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const match = /^(?:\[([0-9a-fA-F:.]+)\]|([A-Za-z0-9.-]+))(?::\d{1,5})?$/.exec(header.trim());
  if (!match) return undefined;
  return (match[1] ?? match[2]!).toLowerCase().replace(/\.$/, '');
}
