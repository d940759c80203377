/**
 * Where the caller's payouts go (spec §2 Account settings: bank, payout): GET/PUT /api/user/bank_details
 * (answers the number masked to its last four characters) and GET/PUT /api/payout/payout_method (the
 * methods the company offers and the caller's choice). Changes need the account password re-entered,
 * are throttled per member, refused in demo mode, and leave an audit row.
 */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../lib/app-context';
import { bankDetailsAnswerSchema, bankDetailsRequestSchema } from '../../src/schemas/bank-details.schema';
import { payoutMethodAnswerSchema, payoutMethodRequestSchema } from '../../src/schemas/payout-method.schema';
import { memberSettingEndpoints } from '../lib/member-setting-endpoint';
import { bankDetailsOf, payoutMethodOf, saveBankDetails, savePayoutMethod } from '../lib/payout-destination';

export async function payoutDestinationRoutes(app: FastifyInstance, ctx: AppContext) {
  memberSettingEndpoints(app, ctx, {
    path: '/api/user/bank_details',
    tags: ['users'],
    describe: {
      get: "The caller's bank details (the IBAN or account number masked to its last four characters), or null, and the countries an account can be in.",
      put:
        "Save the caller's bank details: `account_holder`, `country` (ISO 3166 alpha-2), `iban` where the country uses IBANs, else " +
        '`account_number` and `routing_code`; `bic` and `bank_name`; `password` (the account password). IBAN (checksum) and BIC are checked.',
    },
    answer: bankDetailsAnswerSchema,
    body: bankDetailsRequestSchema,
    changesPer10Minutes: 20,
    read: (member) => bankDetailsOf(ctx, member.id),
    save: (member, body, ip) => saveBankDetails(ctx, member, body, ip),
  });

  memberSettingEndpoints(app, ctx, {
    path: '/api/payout/payout_method',
    tags: ['payout'],
    describe: {
      get: "The payout methods the company offers and the caller's choice with its masked destination.",
      put:
        "Choose the caller's payout method: `method` (one the company offers), `email` for an e-wallet, `address` for USDT (TRC-20), " +
        'and `password` (the account password). A bank transfer needs saved bank details.',
    },
    answer: payoutMethodAnswerSchema,
    body: payoutMethodRequestSchema,
    changesPer10Minutes: 20,
    read: (member) => payoutMethodOf(ctx, member.id),
    save: (member, body, ip) => savePayoutMethod(ctx, member, body, ip),
  });
}
