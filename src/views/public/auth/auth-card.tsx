/** The card every public auth screen sits in: a heading, an optional lead text, the content. */
import { Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

export function AuthCard({ title, description, children }: { title: ReactNode; description?: ReactNode; children?: ReactNode }) {
  return (
    <Paper withBorder radius="md" shadow="sm" p={{ base: 'md', xs: 'xl' }}>
      <Stack gap="md">
        <div>
          <Title order={1} size="h2">
            {title}
          </Title>
          {description && (
            <Text c="dimmed" size="sm" mt={6}>
              {description}
            </Text>
          )}
        </div>
        {children}
      </Stack>
    </Paper>
  );
}
