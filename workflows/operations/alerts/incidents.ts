/** Pure rules of the incident store. Workflow-safe: no I/O, no Temporal calls. */
import type { AlertInput } from './types';

/** How many resolved incidents the store keeps (newest first). */
export const RESOLVED_KEPT = 50;

/**
 * One incident per key: kind + deposit (a stranded deposit), kind + wallet + network (funds nobody accounts for),
 * or kind + network (the gas wallet). A second raise with the same key only updates `lastSeen`.
 */
export function incidentKey(kind: string, details: AlertInput['details']): string {
  const text = (name: string) =>
    typeof details[name] === 'string' && details[name] !== '' ? details[name] : null;
  const deposit = text('depositTransactionId');
  if (deposit) return `${kind}/deposit/${deposit}`;
  const wallet = text('walletId');
  const network = text('network');
  if (wallet) return `${kind}/wallet/${wallet}${network ? `/${network}` : ''}`;
  if (network) return `${kind}/${network}`;
  // A wallet's owner (end-user/<id>, account-setup) or a closed process: one incident each.
  const owner = text('walletOwner') ?? text('process');
  if (owner) return `${kind}/${owner}`;
  return kind;
}
