/** Loopback and Host-header helpers shared by the servers' "open on loopback only" rules and the codec server. */

export { isLoopbackHost } from '../domain/loopback';

/** The host name of a Host header (port dropped, IPv6 brackets kept off, lower case); undefined when malformed. */
export function hostHeaderName(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const match = /^(?:\[([0-9a-fA-F:.]+)\]|([A-Za-z0-9.-]+))(?::\d{1,5})?$/.exec(header.trim());
  if (!match) return undefined;
  return (match[1] ?? match[2]!).toLowerCase().replace(/\.$/, '');
}
