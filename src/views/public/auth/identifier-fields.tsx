/**
 * How the member identifies: a switch between username, e-mail and mobile (only the kinds the
 * company allows) and the matching field — a phone-code select next to the number for mobile.
 */
import { Stack, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { LoginUsing } from '../../../schemas/auth.schema';
import type { Country } from '../../../schemas/common.schema';
import type { IdentifierValues } from '../../../lib/validation';
import { LabelledRadios } from '../../components/segmented-radios';
import { PhoneFields } from './phone-fields';

export interface IdentifierFieldsProps<U extends LoginUsing> {
  using: U;
  options: readonly U[];
  values: IdentifierValues;
  countries: Country[];
  error: (field: string) => string | undefined;
  onUse: (using: U) => void;
  onChange: (field: keyof IdentifierValues, value: string) => void;
  autoFocus?: boolean;
}

const LABEL_KEY: Record<LoginUsing, string> = { username: 'useUsername', email: 'useEmail', mobile_code: 'useMobile' };

export function IdentifierFields<U extends LoginUsing>({ using, options, values, countries, error, onUse, onChange, autoFocus }: IdentifierFieldsProps<U>) {
  const { t } = useTranslation('auth');
  return (
    <Stack gap="sm">
      {options.length > 1 && (
        <div>
          <LabelledRadios
            label={t('identifyBy')}
            value={using}
            onChange={onUse}
            options={options.map((o) => ({ value: o, label: t(LABEL_KEY[o]) }))}
          />
        </div>
      )}
      {using === 'username' && (
        <TextInput
          label={t('username')}
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          value={values.username ?? ''}
          onChange={(e) => onChange('username', e.currentTarget.value)}
          error={error('username') ?? error('login_using')}
          autoFocus={autoFocus}
        />
      )}
      {using === 'email' && (
        <TextInput
          label={t('email')}
          type="email"
          autoComplete="email"
          value={values.email ?? ''}
          onChange={(e) => onChange('email', e.currentTarget.value)}
          error={error('email') ?? error('login_using') ?? error('reset_using')}
          autoFocus={autoFocus}
        />
      )}
      {using === 'mobile_code' && (
        <PhoneFields
          countries={countries}
          code={values.mobile_code ?? ''}
          mobile={values.mobile ?? ''}
          onCode={(v) => onChange('mobile_code', v)}
          onMobile={(v) => onChange('mobile', v)}
          codeError={error('mobile_code')}
          mobileError={error('mobile') ?? error('login_using') ?? error('reset_using')}
          autoFocus={autoFocus}
        />
      )}
    </Stack>
  );
}
