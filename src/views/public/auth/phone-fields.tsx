/** Phone code (native select of the countries) and the mobile number next to it. */
import { Group, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Country } from '../../../schemas/common.schema';
import { PlainSelect } from '../../components/plain-select';

export const phoneCodeLabel = (code: string) => `+${code.replace(/^\+/, '')}`;

export interface PhoneFieldsProps {
  countries: Country[];
  code: string;
  mobile: string;
  onCode: (value: string) => void;
  onMobile: (value: string) => void;
  codeError?: string;
  mobileError?: string;
  mobileLabel?: string;
  autoFocus?: boolean;
}

export function PhoneFields({ countries, code, mobile, onCode, onMobile, codeError, mobileError, mobileLabel, autoFocus }: PhoneFieldsProps) {
  const { t } = useTranslation('auth');
  const known = countries.some((c) => c.phone_code === code);
  return (
    <Group gap="xs" align="flex-start" wrap="nowrap">
      <PlainSelect
        label={t('phoneCode')}
        w={120}
        style={{ flexShrink: 0 }}
        value={code}
        onChange={(e) => onCode(e.currentTarget.value)}
        error={codeError}
        autoComplete="tel-country-code"
        data={[
          ...(known ? [] : [{ value: code, label: code ? phoneCodeLabel(code) : t('choose'), disabled: !code }]),
          ...countries.map((c) => ({ value: c.phone_code, label: `${phoneCodeLabel(c.phone_code)} ${c.iso_code_2}` })),
        ]}
      />
      <TextInput
        label={mobileLabel ?? t('mobile')}
        style={{ flex: 1, minWidth: 0 }}
        type="tel"
        inputMode="numeric"
        autoComplete="tel-national"
        value={mobile}
        onChange={(e) => onMobile(e.currentTarget.value)}
        error={mobileError}
        autoFocus={autoFocus}
      />
    </Group>
  );
}
