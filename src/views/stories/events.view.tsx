/**
 * /member/events: the company's events, upcoming (soonest first) or past (latest first), optionally one tag —
 * both in the URL; /member/event/:id: one event with its image, venue, dates and description, and "Add to
 * calendar", which downloads the event as an .ics file.
 */
import '@mantine/core/styles/SegmentedControl.css';
import { Anchor, Badge, Button, Card, Group, Image, SegmentedControl, Select, Stack, Text, Title } from '@mantine/core';
import { useSelector } from '@xstate/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { Link } from 'wouter';
import type { ActorRefFrom } from 'xstate';
import { absoluteUrl } from '../../lib/links';
import type { eventDetailMachine, eventsListMachine } from '../../machines/stories.machine';
import type { HomeEvent } from '../../schemas/home.schema';
import type { EventsSearch } from '../../schemas/stories.schema';
import { PageIntro } from '../components/page-intro';
import { DenseItems, DenseRow, useDenseColumns, type DenseColumn } from '../components/paged-list/dense-list';
import { PagedList, type PagedListActor } from '../components/paged-list/paged-list';
import { PhoneFilters } from '../components/paged-list/phone-filters';
import { LoadStates, type LoadActor } from '../home/load-states';
import { useDisplayFormat } from '../member/display-format';
import { ShareLinks } from './share-links';

export type CalendarDownload = (id: number) => Promise<unknown>;

function EventImage({ src, alt, h }: { src: string | null; alt: string; h?: number }) {
  const [failed, setFailed] = useState(false);
  if (!src || failed) return null;
  return <Image src={src} alt={alt} h={h} radius="sm" fit="cover" onError={() => setFailed(true)} loading="lazy" />;
}

function When({ e }: { e: HomeEvent }) {
  const { t } = useTranslation('promotion');
  const f = useDisplayFormat();
  return (
    <Text size="sm" c="dimmed">
      {t('events.when', { start: f.date(e.start_date), end: f.date(e.end_date) })}
    </Text>
  );
}

/** The events' columns on desktops. */
const eventColumns = (t: TFunction): DenseColumn[] => [
  { label: t('events.columns.event'), width: 'minmax(0, 2fr)' },
  { label: t('events.tagLabel'), width: 'minmax(0, 1fr)' },
  { label: t('events.columns.when'), width: 'minmax(10rem, 2fr)' },
  { label: t('events.columns.venue'), width: 'minmax(0, 1.5fr)' },
];

function EventCard({ e }: { e: HomeEvent }) {
  const { t } = useTranslation('promotion');
  const f = useDisplayFormat();
  const title = (
    <Anchor component={Link} href={`/event/${e.id}`} fw={600} style={{ overflowWrap: 'anywhere' }}>
      {e.title}
    </Anchor>
  );
  if (useDenseColumns())
    return (
      <DenseRow
        data-event={e.id}
        cells={[
          title,
          e.tag ? (
            <Badge key="tag" variant="light">
              {e.tag}
            </Badge>
          ) : null,
          <Text key="when" size="sm">
            {t('events.when', { start: f.date(e.start_date), end: f.date(e.end_date) })}
          </Text>,
          <Text key="venue" size="sm">
            {e.venue}
          </Text>,
        ]}
      />
    );
  return (
    <Card withBorder radius="md" padding="sm" role="listitem" data-event={e.id}>
      <Stack gap={4}>
        <Group justify="space-between" gap="xs" wrap="wrap">
          {title}
          {e.tag && <Badge variant="light">{e.tag}</Badge>}
        </Group>
        <When e={e} />
        <Text size="sm">{t('events.venueIs', { venue: e.venue })}</Text>
      </Stack>
    </Card>
  );
}

export function EventsView({ actor, search, onSearch }: { actor: ActorRefFrom<typeof eventsListMachine>; search: EventsSearch; onSearch: (s: EventsSearch) => void }) {
  const { t } = useTranslation('promotion');
  const tags = useSelector(actor, (s) => s.context.meta?.tags ?? []);
  const when = search.when ?? 'upcoming';
  const tagChoices = [...new Set([...tags, ...(search.tag ? [search.tag] : [])])];
  return (
    <Stack gap="md" maw={1100} data-events-page>
      <PageIntro title={t('events.title')} description={t('events.description')} />
      <Group gap="sm" align="flex-end" wrap="wrap">
        <SegmentedControl
          aria-label={t('events.whichLabel')}
          value={when}
          onChange={(v) => onSearch({ ...search, when: v as EventsSearch['when'] })}
          data={[
            { value: 'upcoming', label: t('events.upcoming') },
            { value: 'past', label: t('events.past') },
          ]}
        />
        {/* The kind of event is a filter: on a phone it waits behind the Filters button. */}
        <PhoneFilters count={Number(!!search.tag)}>
          <Select
            label={t('events.tagLabel')}
            data={[{ value: '', label: t('events.allTags') }, ...tagChoices.map((x) => ({ value: x, label: x }))]}
            value={search.tag ?? ''}
            onChange={(v) => onSearch({ ...search, tag: v || undefined })}
            allowDeselect={false}
            maw={220}
            comboboxProps={{ withinPortal: true }}
          />
        </PhoneFilters>
      </Group>
      <PagedList<HomeEvent>
        actor={actor as unknown as PagedListActor<HomeEvent>}
        emptyTitle={t(`events.empty.${when}`)}
        emptyDescription={t('events.emptyDescription')}
        columns={eventColumns(t)}
        renderItems={(items) => (
          <DenseItems>
            {items.map((e) => (
              <EventCard key={e.id} e={e} />
            ))}
          </DenseItems>
        )}
      />
    </Stack>
  );
}

function AddToCalendar({ id, download }: { id: number; download: CalendarDownload }) {
  const { t } = useTranslation('promotion');
  const [state, setState] = useState<'idle' | 'busy' | 'failed'>('idle');
  return (
    <Stack gap={4} align="flex-start">
      <Button
        variant="light"
        loading={state === 'busy'}
        data-add-to-calendar
        onClick={() => {
          setState('busy');
          download(id).then(
            () => setState('idle'),
            () => setState('failed'),
          );
        }}
      >
        {t('events.addToCalendar')}
      </Button>
      {state === 'failed' && (
        <Text size="sm" c="red" role="alert">
          {t('events.calendarFailed')}
        </Text>
      )}
    </Stack>
  );
}

export function EventView({ actor, download }: { actor: ActorRefFrom<typeof eventDetailMachine>; download: CalendarDownload }) {
  const { t } = useTranslation('promotion');
  const missing = useSelector(actor, (s) => s.value === 'error' && s.context.error?.status === 404);
  if (missing)
    return (
      <Stack gap="sm" data-event-missing>
        <PageIntro title={t('events.notFoundTitle')} description={t('events.notFoundText')} />
        <Anchor component={Link} href="/events">
          {t('events.back')}
        </Anchor>
      </Stack>
    );
  return (
    <LoadStates actor={actor as unknown as LoadActor<HomeEvent>} loadingLabel={t('events.loading')}>
      {(e) => {
        const past = new Date(e.end_date).getTime() < Date.now();
        return (
          <Stack gap="md" maw={760} data-event-page={e.id}>
            <Anchor component={Link} href="/events" size="sm">
              {t('events.back')}
            </Anchor>
            <Title order={1} size="h2">
              {e.title}
            </Title>
            <Group gap="xs">
              <Badge color={past ? 'gray' : 'teal'} variant="light">
                {t(past ? 'events.pastBadge' : 'events.upcomingBadge')}
              </Badge>
              {e.tag && <Badge variant="light">{e.tag}</Badge>}
            </Group>
            <EventImage src={e.image_preview} alt={t('events.imageOf', { title: e.title })} />
            <Card withBorder radius="md" padding="sm">
              <Stack gap={4}>
                <When e={e} />
                <Text size="sm">{t('events.venueIs', { venue: e.venue })}</Text>
              </Stack>
            </Card>
            {e.about && (
              <Text style={{ whiteSpace: 'pre-wrap' }} data-event-about>
                {e.about}
              </Text>
            )}
            {!past && <AddToCalendar id={e.id} download={download} />}
            <ShareLinks url={absoluteUrl(`/member/event/${e.id}`)} text={e.title} />
          </Stack>
        );
      }}
    </LoadStates>
  );
}
