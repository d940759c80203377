/**
 * The fixed libraries alone: what a sign-in page costs before any of the app's own code. One form drawn with the
 * Mantine components /login uses, one XState machine calling ofetch, one zod/mini schema, i18next with
 * react-i18next, wouter. `npm run bench` builds this page and prints its gzipped JS next to /login's.
 */
import { createRoot } from 'react-dom/client';
import { Anchor, Button, Container, Group, Loader, MantineProvider, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import i18next from 'i18next';
import { initReactI18next, useTranslation } from 'react-i18next';
import { assign, createActor, fromPromise, setup } from 'xstate';
import { useSelector } from '@xstate/react';
import * as z from 'zod/mini';
import { ofetch } from 'ofetch';
import { Route, Switch } from 'wouter';

const Answer = z.object({ name: z.string(), count: z.optional(z.number()), items: z.array(z.object({ on: z.boolean(), note: z.nullable(z.string()) })) });

const machine = setup({ actors: { load: fromPromise(async () => z.parse(Answer, await ofetch('/api/auth/dummy'))) } }).createMachine({
  initial: 'loading',
  context: { name: '' },
  states: {
    loading: { invoke: { src: 'load', onDone: { target: 'ready', actions: assign({ name: ({ event }) => event.output.name }) }, onError: 'ready' } },
    ready: {},
  },
});
const actor = createActor(machine).start();
void i18next.use(initReactI18next).init({ lng: 'en', resources: { en: { common: { title: 'Sign in' } } } });

function Page() {
  const { t } = useTranslation('common');
  const state = useSelector(actor, (s) => String(s.value));
  return (
    <Container size={400}>
      <Paper withBorder p="lg">
        <Stack>
          <Title order={1}>{t('title')}</Title>
          <Text>{state}</Text>
          <TextInput label="Username" />
          <PasswordInput label="Password" />
          <Group>
            <Button type="submit">Continue</Button>
            <Anchor href="/signup">Sign up</Anchor>
            {state === 'loading' && <Loader size="sm" />}
          </Group>
          <Switch>
            <Route path="/">home</Route>
          </Switch>
        </Stack>
      </Paper>
    </Container>
  );
}

createRoot(document.getElementById('root')!).render(
  <MantineProvider>
    <Page />
  </MantineProvider>,
);
