/**
 * Field errors arrive as i18n keys: server keys are namespaced ('validation:required'), client keys
 * may be plain ('required', looked up in the validation namespace). Anything else (a sentence the
 * server sent as is) is shown unchanged.
 */
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';

export type FieldErrorMap = Readonly<Record<string, string | null | undefined>>;

const NAMESPACED_KEY = /^[a-zA-Z][\w-]*:[\w.-]+$/;
const PLAIN_KEY = /^[\w.-]+$/;

/** Returns `error(field)`: the translated message for that field, or undefined when it has none. */
export function useFieldError(fields: FieldErrorMap | null | undefined): (field: string) => string | undefined {
  const { t } = useTranslation(['validation', 'common']);
  return useCallback(
    (field: string) => {
      const key = fields?.[field];
      if (!key) return undefined;
      if (NAMESPACED_KEY.test(key)) return t(key);
      if (PLAIN_KEY.test(key)) return t(key, { ns: 'validation' });
      return key;
    },
    [fields, t],
  );
}
