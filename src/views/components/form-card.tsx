/**
 * The pieces every member form page shows the same way: the form in a card (no browser validation: the
 * shared schema checks it; Enter submits), and a failed request with Try again and Dismiss.
 */
import { Alert, Button, Card, Group, Stack } from '@mantine/core';
import type { ReactNode } from 'react';

export function FormCard({ onSubmit, children }: { onSubmit: () => void; children: ReactNode }) {
  return (
    <Card withBorder radius="md">
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          onSubmit();
        }}
      >
        <Stack gap="md">{children}</Stack>
      </form>
    </Card>
  );
}

/** A request that failed (connection or server): what happened, and Try again / Dismiss. */
export function RequestError({ title, retryLabel, dismissLabel, onRetry, onDismiss }: { title: string; retryLabel: string; dismissLabel: string; onRetry?: () => void; onDismiss: () => void }) {
  return (
    <Alert color="red" role="alert" title={title}>
      <Group gap="xs" mt={4}>
        {onRetry && (
          <Button size="xs" onClick={onRetry}>
            {retryLabel}
          </Button>
        )}
        <Button size="xs" variant="default" onClick={onDismiss}>
          {dismissLabel}
        </Button>
      </Group>
    </Alert>
  );
}
