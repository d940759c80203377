/** The compensation run as staff start it: pay one plan period from the volume recorded. */
import { runCompensation } from '../lib/compensation-run';
import * as money from '../lib/money';
import { OperatorUsageError, type OperatorArea } from './registry';

const planDate = (text: string | boolean | undefined) => {
  if (text === undefined) return undefined;
  if (typeof text !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(text) || Number.isNaN(Date.parse(`${text}T00:00:00Z`))) {
    throw new OperatorUsageError('--plan-date is a day of the period to pay, YYYY-MM-DD');
  }
  return new Date(`${text}T00:00:00Z`);
};

export const compensationOperator: OperatorArea = {
  name: 'pairing',
  summary: "the compensation plan's periodic run (binary pairing, matrix or unilevel level commissions)",
  commands: {
    run: {
      usage: '[--plan-date YYYY-MM-DD]',
      summary: 'pay the week (Monday to Sunday, UTC) the date falls in, by default the last week that ended; a week paid once is never paid again',
      options: { 'plan-date': { type: 'string' } },
      async run({ database, settings }, { values }, io) {
        const r = await runCompensation({ db: database.db, settings }, { planDate: planDate(values['plan-date']) });
        const what = `${r.plan} plan, week of ${r.periodStart}`;
        if (r.alreadyPaid) return io.out(`${what} was already paid (${r.earnings} earning(s), ${money.format(r.total, 2)}); nothing paid now.`);
        io.out(`${what}: paid ${r.earnings} earning(s), ${money.format(r.total, 2)} in total, for volume recorded until ${r.paidUntil.toISOString()}.`);
      },
    },
  },
};
