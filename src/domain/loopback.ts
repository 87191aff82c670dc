/** Whether a host name or address stays on this machine: the rule of every "loopback only" default. */

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
