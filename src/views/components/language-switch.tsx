/**
 * Language switch: a native select listing the languages by their own names. Native on purpose: it
 * is keyboard- and screen-reader-friendly everywhere, opens the phone's own picker, and adds almost
 * nothing to the first page (a popover menu would pull in the floating-position library, ~29 KB
 * gzipped, on /login). Drawn as Mantine's NativeSelect (./plain-select).
 */
import { useTranslation } from 'react-i18next';
import type { Language } from '../../schemas/common.schema';
import { GlobeIcon } from './icons';
import { PlainSelect } from './plain-select';

export type LanguageOption = Pick<Language, 'code' | 'name' | 'native_name'>;

export interface LanguageSwitchProps {
  languages: readonly LanguageOption[];
  current: string;
  onChange: (code: string) => void;
}

export function LanguageSwitch({ languages, current, onChange }: LanguageSwitchProps) {
  const { t } = useTranslation('common');
  if (languages.length < 2) return null;
  const active = languages.find((l) => l.code === current) ?? languages.find((l) => current.startsWith(`${l.code}-`));
  return (
    <PlainSelect
      aria-label={t('language')}
      title={t('language')}
      size="sm"
      w={{ base: 124, xs: 136 }}
      leftSection={<GlobeIcon size={16} />}
      value={active?.code ?? ''}
      onChange={(e) => {
        const code = e.currentTarget.value;
        if (code && code !== active?.code) onChange(code);
      }}
      data={[
        ...(active ? [] : [{ value: '', label: current.toUpperCase(), disabled: true }]),
        ...languages.map((l) => ({ value: l.code, label: l.native_name })),
      ]}
    />
  );
}
