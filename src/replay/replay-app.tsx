/**
 * /support/replay: support staff sign in with an operator token (`npm run operator -- token create`), load a
 * member's snapshot (a downloaded file, or by id from the server), and the member app appears as the
 * member had it — same route, same machine states, same form values (minus secrets), same list pages —
 * running on the recorded answers through the sandbox (sandbox.ts: nothing is sent anywhere). Beside it:
 * the event trail with steps backwards and forwards, and each page's state highlighted on its diagram
 * (the flow site's SVG, /flows).
 */
import { Alert, Badge, Button, Code, FileInput, Group, Paper, PasswordInput, ScrollArea, Stack, Text, TextInput, Title } from '@mantine/core';
import DOMPurify from 'dompurify';
import { useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { createActor } from 'xstate';
import { APP_KEY } from '../api/call-common';
import { setTransport } from '../api/client';
import { Root } from '../app/app';
import { bindSessionMachine, browserBindings } from '../app/bindings';
import { setReplayedPageSnapshots } from '../app/member/page-actor';
import type { SessionActor } from '../app/session-actor';
import type { SupportSnapshot } from '../lib/support-snapshot';
import { supportTrail } from '../lib/support-trail';
import { loadFlow } from '../machines/deferred-flows';
import { supportSnapshotSchema } from '../schemas/support-snapshot.schema';
import { pageSnapshotsAt, replayedPages, sandboxTransport, statePaths, type Refusal } from './sandbox';

/** The browser's own fetch, kept before the replay starts: only the sign-in, the snapshot and the diagrams use it. */
const ownFetch = typeof window !== 'undefined' ? window.fetch.bind(window) : fetch;
const PROBE_ID = 'AAAAAAAAAAAAAAAA';

async function fetchSnapshot(id: string, token: string): Promise<Response> {
  return ownFetch(`/api/support/replay/snapshots/${encodeURIComponent(id)}`, {
    headers: { Accept: 'application/json', 'X-App-Key': APP_KEY, 'X-Requested-With': 'XMLHttpRequest', 'X-Operator-Token': token },
    credentials: 'omit',
  });
}

function parseSnapshot(text: string): SupportSnapshot | null {
  try {
    const parsed = supportSnapshotSchema.safeParse(JSON.parse(text));
    return parsed.success ? (parsed.data as unknown as SupportSnapshot) : null;
  } catch {
    return null;
  }
}

function SignIn({ onSignedIn }: { onSignedIn: (token: string) => void }) {
  const { t } = useTranslation('support');
  const [token, setToken] = useState('');
  const [state, setState] = useState<'idle' | 'busy' | 'refused' | 'offline'>('idle');
  const submit = async () => {
    setState('busy');
    try {
      // A valid token finds no snapshot under this made-up reference (404); any other answer refuses it.
      const res = await fetchSnapshot(PROBE_ID, token.trim());
      if (res.status !== 404) return setState('refused');
      onSignedIn(token.trim());
    } catch {
      setState('offline');
    }
  };
  return (
    <Paper withBorder p="lg" maw={480} mx="auto" mt="xl" component="form" onSubmit={(e) => (e.preventDefault(), void submit())}>
      <Stack>
        <Title order={1} size="h3">
          {t('replay.title')}
        </Title>
        <Text size="sm">{t('replay.signInHint')}</Text>
        <PasswordInput label={t('replay.token')} value={token} onChange={(e) => setToken(e.currentTarget.value)} autoComplete="off" data-replay-token />
        {state === 'refused' && <Alert color="red" role="alert">{t('replay.tokenRefused')}</Alert>}
        {state === 'offline' && <Alert color="red" role="alert">{t('replay.offline')}</Alert>}
        <Button type="submit" loading={state === 'busy'} disabled={!token.trim()}>
          {t('replay.signIn')}
        </Button>
      </Stack>
    </Paper>
  );
}

function Load({ token, onLoaded }: { token: string; onLoaded: (s: SupportSnapshot) => void }) {
  const { t } = useTranslation('support');
  const [id, setId] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const fromFile = async (file: File | null) => {
    if (!file) return;
    const s = parseSnapshot(await file.text());
    if (s) onLoaded(s);
    else setProblem('replay.notASnapshot');
  };
  const fromServer = async () => {
    try {
      const res = await fetchSnapshot(id.trim(), token);
      if (res.status === 401) return setProblem('replay.tokenRefused');
      if (res.status !== 200) return setProblem('replay.notFound');
      const s = parseSnapshot(await res.text());
      if (s) onLoaded(s);
      else setProblem('replay.notASnapshot');
    } catch {
      setProblem('replay.offline');
    }
  };
  return (
    <Paper withBorder p="lg" maw={480} mx="auto" mt="xl">
      <Stack>
        <Title order={1} size="h3">
          {t('replay.loadTitle')}
        </Title>
        <FileInput label={t('replay.file')} accept="application/json,.json" onChange={(f) => void fromFile(f)} data-replay-file />
        <Group align="flex-end" component="form" onSubmit={(e) => (e.preventDefault(), void fromServer())}>
          <TextInput label={t('replay.id')} value={id} onChange={(e) => setId(e.currentTarget.value)} data-replay-id style={{ flex: 1 }} />
          <Button type="submit" disabled={!id.trim()}>
            {t('replay.open')}
          </Button>
        </Group>
        {problem && <Alert color="red" role="alert">{t(problem)}</Alert>}
      </Stack>
    </Paper>
  );
}

/** The SVG of a machine from the flow site, with the given state paths highlighted. */
function Diagram({ machine, active }: { machine: string; active: string[] }) {
  const [svg, setSvg] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    void (async () => {
      try {
        const index = new DOMParser().parseFromString(await (await ownFetch('/flows/index.html')).text(), 'text/html');
        const href = index.querySelector(`tr[data-machine="${CSS.escape(machine)}"] a`)?.getAttribute('href');
        if (!href) return;
        const [file, anchor] = href.split('#');
        const page = new DOMParser().parseFromString(await (await ownFetch(`/flows/${file}`)).text(), 'text/html');
        const heading = anchor ? page.getElementById(anchor) : null;
        let el: Element | null = heading;
        while (el && !el.querySelector?.('svg')) el = el.nextElementSibling;
        const found = (el ?? page).querySelector('svg');
        if (live && found) setSvg(DOMPurify.sanitize(found.outerHTML, { USE_PROFILES: { svg: true, svgFilters: true } }));
      } catch {
        /* the diagram is a help, not a must */
      }
    })();
    return () => {
      live = false;
    };
  }, [machine]);
  const css = active.map((p) => `[data-replay-diagram="${machine}"] [data-state="${p}"] > rect { stroke: #e8590c; stroke-width: 4px; }`).join('\n');
  return (
    <div data-replay-diagram={machine} data-active-states={active.join(' ')}>
      <style>{css}</style>
      {svg ? <div dangerouslySetInnerHTML={{ __html: svg }} style={{ maxWidth: '100%', overflow: 'auto' }} /> : <Code>{active.at(-1) ?? ''}</Code>}
    </div>
  );
}

function Trail({ snapshot, step, onStep, refused }: { snapshot: SupportSnapshot; step: number; onStep: (n: number) => void; refused: Refusal[] }) {
  const { t } = useTranslation('support');
  const total = snapshot.events.length;
  const pages = useMemo(() => pageSnapshotsAt(snapshot, step), [snapshot, step]);
  const live = useLiveStates();
  return (
    <Stack gap="sm" p="sm">
      <Title order={2} size="h5">
        {t('replay.trail')}
      </Title>
      <Group gap="xs">
        <Button size="xs" variant="default" onClick={() => onStep(step - 1)} disabled={step <= 0} data-replay-back>
          {t('replay.back')}
        </Button>
        <Text size="sm" data-replay-step>
          {t('replay.step', { step, total })}
        </Text>
        <Button size="xs" variant="default" onClick={() => onStep(step + 1)} disabled={step >= total} data-replay-forward>
          {t('replay.forward')}
        </Button>
      </Group>
      <Text size="xs" c="dimmed">
        {step > 0 ? `${snapshot.events[step - 1].at} · ${snapshot.events[step - 1].actor} · ${snapshot.events[step - 1].type}` : t('replay.start')}
      </Text>
      {snapshot.pages.map((p) => {
        const value = (pages.get(p.key) as { value?: unknown } | undefined)?.value ?? null;
        const shown = live.get(p.key);
        // The diagram highlights the state the replayed page is in; a page not on screen, its recorded one.
        const active = statePaths(shown === undefined ? value : shown);
        const url = pageUrl(p);
        return (
          <Stack key={p.key} gap={4} data-replay-page={p.key}>
            <Group gap="xs">
              <Badge variant="light">{p.key}</Badge>
              <Code data-replay-state>{JSON.stringify(value)}</Code>
              {url && !shown && (
                <Button size="compact-xs" variant="light" onClick={() => openPage(url)} data-replay-open={p.key}>
                  {t('replay.openPage')}
                </Button>
              )}
            </Group>
            {shown !== undefined && (
              <Text size="xs">
                {t('replay.onScreen')} <Code data-replay-live>{JSON.stringify(shown)}</Code>
              </Text>
            )}
            {p.machine && <Diagram machine={p.machine} active={active} />}
          </Stack>
        );
      })}
      <Text size="xs" c="dimmed" data-replay-refused={refused.length}>
        {t('replay.refused', { count: refused.length })}
      </Text>
    </Stack>
  );
}

/** The URL a recorded page was open at (its query string too); a route with parameters needs the recorded one. */
export function pageUrl(p: SupportSnapshot['pages'][number]): string | null {
  if (p.url) return p.url;
  return p.path && !p.path.includes(':') ? `/member${p.path}` : null;
}

/** Page key → the state value of the replayed page actor on screen now (the actors the replayed app runs). */
function useLiveStates(): Map<string, unknown> {
  const text = useSyncExternalStore(supportTrail.subscribe, () => JSON.stringify(supportTrail.pages().map((p) => [p.key, p.actor.getSnapshot().value ?? null])));
  return useMemo(() => new Map(JSON.parse(text) as Array<[string, unknown]>), [text]);
}

/** Opens another recorded page in the replayed app (its router follows the browser's history). */
function openPage(url: string) {
  window.history.pushState(null, '', url);
  window.dispatchEvent(new PopStateEvent('popstate'));
}

async function sessionFrom(snapshot: SupportSnapshot): Promise<SessionActor> {
  const root = snapshot.root as { children?: Record<string, { src?: unknown }> } | null;
  await Promise.all(Object.values(root?.children ?? {}).map((c) => loadFlow(typeof c?.src === 'string' ? c.src : null).catch(() => undefined)));
  const actor = createActor(bindSessionMachine(browserBindings), { snapshot: snapshot.root as never, input: { path: snapshot.route.path, search: snapshot.route.search, moduleData: null } as never });
  actor.start();
  return actor as SessionActor;
}

function Replay({ snapshot }: { snapshot: SupportSnapshot }) {
  const { t } = useTranslation('support');
  const [step, setStep] = useState(snapshot.events.length);
  const [session, setSession] = useState<SessionActor | null>(null);
  const [refused, setRefused] = useState<Refusal[]>([]);
  const [panel, setPanel] = useState(true);
  useEffect(() => {
    setTransport(sandboxTransport(snapshot, (r) => setRefused((list) => [...list, r])));
    window.history.replaceState(null, '', `${snapshot.route.path}${snapshot.route.search}`);
    let live = true;
    void sessionFrom(snapshot).then((a) => live && setSession(a));
    return () => {
      live = false;
    };
  }, [snapshot]);
  const replayed = useMemo(() => replayedPages(snapshot, step), [snapshot, step]);
  setReplayedPageSnapshots(replayed);
  if (!session) return <Text p="md">{t('replay.starting')}</Text>;
  return (
    <>
      <div data-replay-screen key={step}>
        <Root actor={session} />
      </div>
      <aside
        aria-label={t('replay.trail')}
        data-replay-panel
        style={{ position: 'fixed', right: 0, top: 0, bottom: 0, width: panel ? 380 : 'auto', zIndex: 1000, background: 'var(--mantine-color-body)', borderLeft: '1px solid var(--mantine-color-default-border)' }}
      >
        <Button size="xs" variant="subtle" onClick={() => setPanel(!panel)} m={4}>
          {panel ? t('replay.hidePanel') : t('replay.showPanel')}
        </Button>
        {panel && (
          <ScrollArea h="calc(100% - 40px)">
            <Trail snapshot={snapshot} step={step} onStep={(n) => setStep(Math.max(0, Math.min(snapshot.events.length, n)))} refused={refused} />
          </ScrollArea>
        )}
      </aside>
    </>
  );
}

export function ReplayApp() {
  const [token, setToken] = useState<string | null>(null);
  const [snapshot, setSnapshot] = useState<SupportSnapshot | null>(null);
  if (snapshot) return <Replay snapshot={snapshot} />;
  if (!token) return <SignIn onSignedIn={setToken} />;
  return <Load token={token} onLoaded={setSnapshot} />;
}
