/**
 * Operator tokens for support staff: `token create` prints a new one once (only its hash is kept), `token
 * list` shows who has which and until when, `token revoke ID` ends one at once. Staff sign in to the
 * support replay (/support/replay) with it.
 */
import { createOperatorToken, DEFAULT_TOKEN_HOURS, listOperatorTokens, MAX_TOKEN_HOURS, revokeOperatorToken } from '../lib/support-snapshot';
import { OperatorUsageError, type OperatorArea } from './registry';

export const tokenOperator: OperatorArea = {
  name: 'token',
  summary: 'operator tokens support staff open the replay with',
  commands: {
    create: {
      usage: '[--label NAME] [--hours N]',
      summary: `a new token, printed once; it expires after --hours (default ${DEFAULT_TOKEN_HOURS}, at most ${MAX_TOKEN_HOURS})`,
      options: { label: { type: 'string' }, hours: { type: 'string' } },
      async run({ database }, { values }, io) {
        const label = typeof values.label === 'string' && values.label.trim() ? values.label.trim().slice(0, 100) : 'support';
        const hours = values.hours === undefined ? DEFAULT_TOKEN_HOURS : Number(values.hours);
        if (!Number.isFinite(hours) || hours <= 0 || hours > MAX_TOKEN_HOURS) throw new OperatorUsageError(`--hours is a number of hours above 0 and at most ${MAX_TOKEN_HOURS}`);
        const t = await createOperatorToken(database.db, label, hours);
        io.out(`Token ${t.id} (${label}) until ${t.expiresAt.toISOString()}. It is shown only now:`);
        io.out(t.token);
      },
    },
    list: {
      usage: '',
      summary: 'every token: id, label, until when, revoked or not (never the token itself)',
      async run({ database }, _args, io) {
        const rows = await listOperatorTokens(database.db);
        if (!rows.length) return io.out('No operator tokens.');
        const now = Date.now();
        for (const r of rows) {
          const state = r.revokedAt ? `revoked ${r.revokedAt.toISOString()}` : r.expiresAt.getTime() <= now ? 'expired' : 'valid';
          io.out(`${r.id}\t${r.label}\tuntil ${r.expiresAt.toISOString()}\t${state}\tlast used ${r.lastUsedAt?.toISOString() ?? 'never'}`);
        }
      },
    },
    revoke: {
      usage: 'ID',
      summary: 'end a token at once',
      async run({ database }, { positionals }, io) {
        const text = positionals[0];
        if (!text || !/^\d{1,15}$/.test(text)) throw new OperatorUsageError('give the number of a token (see: token list)');
        if (!(await revokeOperatorToken(database.db, Number(text)))) throw new OperatorUsageError(`no valid token ${text}`);
        io.out(`Token ${text} revoked.`);
      },
    },
  },
};
