/**
 * A list's filters on a phone: behind one "Filters" button that says how many are set, so the list starts
 * near the top of the screen; wider screens show them as they are. Used by every list with filters (the
 * endless lists' FilterBar, the downline report, the CRM lists).
 */
import { Badge, Button, Collapse, em, Group, Stack } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useId, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

export const PHONE_LIST_QUERY = `(max-width: ${em(599.9)})`;

export function PhoneFilters({ count, children }: { count: number; children: ReactNode }) {
  const { t } = useTranslation('wallet');
  const phone = useMediaQuery(PHONE_LIST_QUERY);
  const [opened, setOpened] = useState(false);
  const id = useId();
  if (!phone) return <>{children}</>;
  return (
    <Stack gap="xs">
      <Group gap="xs">
        <Button
          variant="default"
          onClick={() => setOpened((o) => !o)}
          aria-expanded={opened}
          aria-controls={id}
          aria-label={count ? t('filters.buttonWithCount', { count }) : undefined}
          rightSection={count ? <Badge size="sm" circle aria-hidden>{count}</Badge> : undefined}
        >
          {t('filters.button')}
        </Button>
      </Group>
      <Collapse expanded={opened} id={id}>
        {children}
      </Collapse>
    </Stack>
  );
}
