/**
 * The code-entry screen of the flows that send a one-time code (sign-in with a code, password
 * reset, signup verification): the six digits with where they went and the resend countdown,
 * the reason of the last refusal, and the verify button.
 */
import { Button, Stack } from '@mantine/core';
import type { FormEvent, ReactNode } from 'react';
import { AuthCard } from './auth-card';
import { OtpField } from './otp-field';
import { SubmitAlert, type SubmitProblem } from './submit-alert';

export interface CodeEntryProps {
  title: ReactNode;
  description?: ReactNode;
  /** The flow's context: the typed code, the resend countdown, the server's wait. */
  flow: { values: { otp: string }; resendIn: number; retryAfter: number | null };
  error?: string;
  destination?: string | null;
  canResend: boolean;
  resending: boolean;
  verifying: boolean;
  problem: SubmitProblem | null;
  submitLabel: ReactNode;
  onChange: (code: string) => void;
  onResend: () => void;
  onSubmit: () => void;
  /** Server errors about fields this screen does not show. */
  unplaced?: ReactNode;
  /** Below the form: a way back. */
  footer?: ReactNode;
}

export function CodeEntry(p: CodeEntryProps) {
  const submit = (e: FormEvent) => {
    e.preventDefault();
    p.onSubmit();
  };
  return (
    <AuthCard title={p.title} description={p.description}>
      <form noValidate onSubmit={submit}>
        <Stack gap="md">
          <OtpField
            value={p.flow.values.otp ?? ''}
            onChange={p.onChange}
            error={p.error}
            destination={p.destination}
            resendIn={p.flow.resendIn}
            canResend={p.canResend}
            resending={p.resending}
            onResend={p.onResend}
          />
          {p.unplaced}
          <SubmitAlert problem={p.problem} retryAfter={p.flow.retryAfter} />
          <Button type="submit" fullWidth loading={p.verifying} disabled={p.resending}>
            {p.submitLabel}
          </Button>
        </Stack>
      </form>
      {p.footer}
    </AuthCard>
  );
}
