/**
 * The first step of the flows that send a one-time code (sign-in with a code, password reset):
 * how the member identifies, the reason of the last refusal, and the send button.
 */
import { Button, Stack } from '@mantine/core';
import type { FormEvent, ReactNode } from 'react';
import type { LoginUsing } from '../../../schemas/auth.schema';
import type { Country } from '../../../schemas/common.schema';
import type { IdentifierValues } from '../../../lib/validation';
import { useFieldError } from '../../components/field-error';
import { AuthCard } from './auth-card';
import { IdentifierFields, type IdentifierFieldsProps } from './identifier-fields';
import { SubmitAlert, type SubmitProblem } from './submit-alert';
import { UnplacedErrors } from './unplaced-errors';

export interface SendCodeFormProps<U extends LoginUsing> extends Omit<IdentifierFieldsProps<U>, 'values' | 'countries' | 'error' | 'autoFocus'> {
  title: ReactNode;
  description?: ReactNode;
  /** The flow's context: typed values, the loaded fields (countries), errors (field → i18n key). */
  flow: { values: IdentifierValues; fields: { countries: Country[] } | null; fieldErrors: Record<string, string>; retryAfter: number | null };
  /** Fields the flow shows on some screen; server errors about any other field are listed. */
  shown: string[];
  problem: SubmitProblem | null;
  busy: boolean;
  submitLabel: ReactNode;
  onSubmit: () => void;
  /** Below the form: links elsewhere. */
  footer?: ReactNode;
}

export function SendCodeForm<U extends LoginUsing>({
  title,
  description,
  flow,
  shown,
  problem,
  busy,
  submitLabel,
  onSubmit,
  footer,
  ...identifier
}: SendCodeFormProps<U>) {
  const error = useFieldError(flow.fieldErrors);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onSubmit();
  };
  return (
    <AuthCard title={title} description={description}>
      <form noValidate onSubmit={submit}>
        <Stack gap="md">
          <IdentifierFields {...identifier} values={flow.values} countries={flow.fields?.countries ?? []} error={error} autoFocus />
          <UnplacedErrors errors={flow.fieldErrors} shown={shown} />
          <SubmitAlert problem={problem} retryAfter={flow.retryAfter} />
          <Button type="submit" fullWidth loading={busy}>
            {submitLabel}
          </Button>
        </Stack>
      </form>
      {footer}
    </AuthCard>
  );
}
