/**
 * The data converter every Temporal client and worker of the product uses. With PAYLOAD_ENCRYPTION_KEYS set it
 * adds the AES-256-GCM codec (src/temporal/encryption-codec.ts); without, undefined (the SDK default).
 * Search attributes, workflow IDs and failure messages are not payloads: they stay in clear; RampEndUserId holds a
 * pseudonym with keys configured (src/temporal/end-user-pseudonym.ts;
 * docs/architecture.md, "Security").
 */
import {
  arrayFromPayloads,
  type DataConverter,
  type LoadedDataConverter,
  type Payload,
} from '@temporalio/common';
import type { PayloadEncryptionConfig } from '../config/encryption';
import { EncryptionCodec } from './encryption-codec';

export function dataConverterFromConfig(
  config: Pick<PayloadEncryptionConfig, 'keys'> | undefined,
): DataConverter | undefined {
  if (!config || config.keys.length === 0) return undefined;
  return { payloadCodecs: [new EncryptionCodec(config.keys)] };
}

/** The values of payloads read from a history (a signal's input), through the codecs in reverse, as the SDK decodes. */
export async function decodedPayloads(
  converter: LoadedDataConverter,
  payloads: Payload[] | null | undefined,
): Promise<unknown[]> {
  if (!payloads) return [];
  let decoded = payloads;
  for (const codec of [...converter.payloadCodecs].reverse()) decoded = await codec.decode(decoded);
  return arrayFromPayloads(converter.payloadConverter, decoded);
}
