/** A member page's heading (the page's one h1) and the sentence under it that says what the page is for. */
import { Text, Title } from '@mantine/core';

export function PageIntro({ title, description }: { title: string; description?: string }) {
  return (
    <>
      <Title order={1} size="h2">
        {title}
      </Title>
      {description && (
        <Text c="dimmed" size="sm">
          {description}
        </Text>
      )}
    </>
  );
}
