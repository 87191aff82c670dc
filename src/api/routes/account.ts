/** The account setup: POST /v1/account/setup runs it (or checks it again), GET /v1/account reads what it recorded. */
import { z } from 'zod';
import { ACCOUNT_WALLET_ROLES, RESOURCE_KINDS } from '../../domain/vocabulary';
import { addressOnNetwork, isoDateTime, text } from '../../ledger/views';
import type {
  AccountRecipient,
  AccountSetupResult,
  AccountSetupState,
  AccountWallet,
} from '../../../workflows/account-setup/types';
import type {
  OrphanWallet,
  UnconfirmedCreation,
  WalletCreatedSignal,
  WalletCreationRequest,
  WalletJournal,
} from '../../../workflows/wallet-creation/journal';
import { component, describes } from '../components';
import { endpoint } from '../endpoint';

const orphanWallet = describes<OrphanWallet>()(
  z.strictObject({ walletId: text, recordedAt: isoDateTime, reason: text }),
);
const unconfirmedCreation = describes<UnconfirmedCreation>()(
  z.strictObject({ attempt: z.number(), recordedAt: isoDateTime, requestId: text }),
);
const walletCreationRequest = describes<WalletCreationRequest>()(
  z.strictObject({
    requestId: text,
    attempt: z.number(),
    requestedAt: isoDateTime,
    answeredWalletId: text.optional(),
    inFlightForMs: z.number().optional(),
    notSent: z.literal(true).optional(),
  }),
);
const walletCreated = describes<WalletCreatedSignal>()(
  z.strictObject({
    walletId: text,
    externalUserId: text,
    attempt: z.number(),
    role: z.enum(ACCOUNT_WALLET_ROLES).optional(),
    requestId: text,
  }),
);
const walletJournal = describes<WalletJournal>()(
  z.strictObject({
    requests: z.array(walletCreationRequest),
    unconfirmed: z.array(unconfirmedCreation),
    journaled: walletCreated.optional(),
  }),
);

const accountWallet = describes<AccountWallet>()(
  z.strictObject({
    role: z.enum(ACCOUNT_WALLET_ROLES),
    walletId: text,
    externalUserId: text,
    addresses: z.array(addressOnNetwork),
    createdAt: isoDateTime,
  }),
);
const accountRecipient = describes<AccountRecipient>()(
  z.strictObject({
    kind: z.enum(RESOURCE_KINDS),
    id: text,
    redactedUrl: text,
    createdByUs: z.boolean(),
    recordedAt: isoDateTime,
  }),
);

const accountSetupResult = component(
  'AccountSetupResult',
  describes<AccountSetupResult>()(
    z.strictObject({
      status: z.literal('ready'),
      masterWallet: accountWallet,
      gasWallet: accountWallet,
      recipients: z.strictObject({ transaction: accountRecipient, order: accountRecipient }),
      addedRecipients: z.array(accountRecipient),
      removedRecipients: z.array(accountRecipient),
      whitelist: z.array(
        z.strictObject({ role: z.enum(ACCOUNT_WALLET_ROLES), network: text, address: text }),
      ),
      nextSteps: z.array(text),
      setupRuns: z.number(),
      completedAt: isoDateTime,
    }),
  ),
);

const perRole = <S extends z.ZodType>(schema: S) =>
  z.strictObject({ master: schema.optional(), gas: schema.optional() });

const accountSetupState = component(
  'AccountSetupState',
  describes<AccountSetupState>()(
    z.strictObject({
      status: z.enum(['none', 'running', 'ready', 'failed']),
      lastError: text.optional(),
      wallets: perRole(accountWallet),
      journals: z.strictObject({ master: walletJournal, gas: walletJournal }),
      recipients: z.array(accountRecipient),
      orphanWallets: z.array(orphanWallet.extend({ role: z.enum(ACCOUNT_WALLET_ROLES) })),
      extraWalletsReported: z.number(),
      result: accountSetupResult.optional(),
      setupRuns: z.number(),
      createdAt: isoDateTime,
    }),
  ),
);

export const accountEndpoints = [
  endpoint({
    method: 'post',
    path: '/v1/account/setup',
    operationId: 'setupAccount',
    summary: 'Runs (or re-checks) the account setup',
    tag: 'Account',
    answers: {
      200: { schema: accountSetupResult, description: 'The setup: wallets, recipients, next steps' },
    },
    errors: [422],
    handle: (_request, ramp) => ramp.setupAccount(),
  }),
  endpoint({
    method: 'get',
    path: '/v1/account',
    operationId: 'getAccount',
    summary: 'The recorded account setup',
    tag: 'Account',
    answers: { 200: { schema: accountSetupState, description: 'The account setup' } },
    errors: [404],
    handle: (_request, ramp) => ramp.getAccount(),
  }),
];
