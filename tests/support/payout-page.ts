/** The payout request page actor with stubbed calls: settings, the request, and the cancel of a pending request. */
import { createActor, fromPromise } from 'xstate';
import { createPayoutPage, payoutCancelMachine, payoutRequestMachine } from '../../src/machines/payout-request.machine';
import type { PayoutCancelResult, PayoutRequestResult, PayoutSettings } from '../../src/schemas/wallet.schema';

const never = () => new Promise<never>(() => {});

export function payoutPage(calls: {
  load: () => Promise<PayoutSettings>;
  submit?: () => Promise<PayoutRequestResult>;
  cancel?: (id: number) => Promise<PayoutCancelResult>;
}) {
  const form = payoutRequestMachine.provide({ actors: { load: fromPromise(calls.load), submit: fromPromise(calls.submit ?? never) } });
  const cancel = payoutCancelMachine.provide({ actors: { remove: fromPromise<unknown, unknown>(({ input }) => (calls.cancel ?? never)(input as number)) } });
  const page = createActor(createPayoutPage(form, cancel)).start();
  /** The form child (its states are the request's states). */
  const formActor = () => page.getSnapshot().children.form!;
  return { page, form: formActor };
}
