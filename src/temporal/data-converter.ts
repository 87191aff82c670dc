/**
 * The data converter every Temporal client and worker of the product uses. With PAYLOAD_ENCRYPTION_KEYS set it
 * adds the AES-256-GCM codec (src/temporal/encryption-codec.ts); without, undefined (the SDK default).
 * Search attributes, workflow IDs and failure messages are not payloads: they stay in clear; RampEndUserId holds a
 * pseudonym with keys configured (src/temporal/end-user-pseudonym.ts;
 * docs/architecture.md, "Security").
 */
import type { DataConverter } from '@temporalio/common';
import type { PayloadEncryptionConfig } from '../config/encryption';
import { EncryptionCodec } from './encryption-codec';

export function dataConverterFromConfig(
  config: Pick<PayloadEncryptionConfig, 'keys'> | undefined,
): DataConverter | undefined {
  if (!config || config.keys.length === 0) return undefined;
  return { payloadCodecs: [new EncryptionCodec(config.keys)] };
}
