/** Live checklist of the server's password policy: each rule ticks as soon as the password meets it. */
import { Box, Group, Text, VisuallyHidden } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { PasswordPolicy } from '../../../schemas/auth.schema';
import { passwordChecklist } from '../../../lib/code-and-password';
import { CheckIcon } from '../../components/more-icons';

export function PasswordChecklist({ policy, password, id }: { policy: PasswordPolicy | null | undefined; password: string; id?: string }) {
  const { t } = useTranslation('auth');
  const rules = passwordChecklist(policy, password);
  if (!rules.length) return null;
  return (
    <Box id={id} aria-label={t('passwordRules')}>
      <Text size="xs" c="dimmed" mb={4} aria-hidden="true">
        {t('passwordRules')}
      </Text>
      <Box component="ul" m={0} p={0} style={{ listStyle: 'none' }}>
        {rules.map((r) => (
          <Group component="li" key={r.key} gap={6} wrap="nowrap" data-met={r.met || undefined}>
            <Box
              component="span"
              c={r.met ? 'teal' : 'dimmed'}
              style={{ display: 'inline-flex', width: 16, justifyContent: 'center', flexShrink: 0 }}
            >
              {r.met ? <CheckIcon size={14} /> : <span aria-hidden="true">•</span>}
            </Box>
            <Text size="xs" c={r.met ? 'teal' : 'dimmed'}>
              {t(`rule.${r.key}`, r.values)}
              <VisuallyHidden>{r.met ? ` — ${t('ruleMet')}` : ` — ${t('ruleNotMet')}`}</VisuallyHidden>
            </Text>
          </Group>
        ))}
      </Box>
    </Box>
  );
}
