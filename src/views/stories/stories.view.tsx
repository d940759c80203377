/**
 * /member/story: the company's articles and videos, each a tab with its own URL (base → article). The lists
 * are paged (image or the video's thumbnail, title, description, date); an article's page shows its image and
 * its HTML (sanitised by the server, and again by the browser: SafeHtml); a video's page plays it (a
 * privacy-enhanced YouTube or Vimeo player, or the browser's own for a file; any other address is a link out)
 * — both with share links.
 */
import '@mantine/core/styles/AspectRatio.css';
import { Alert, Anchor, AspectRatio, Card, Group, Image, Stack, Text, Title } from '@mantine/core';
import { useSelector } from '@xstate/react';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import type { ActorRefFrom } from 'xstate';
import { absoluteUrl } from '../../lib/links';
import { videoSource } from '../../lib/video-embed';
import { videoThumbnail } from '../../lib/video-thumbnail';
import type { articleDetailMachine, articlesListMachine, videoDetailMachine } from '../../machines/stories.machine';
import type { Article, StoryItem } from '../../schemas/home.schema';
import { TabbedPage } from '../components/tabbed-page';
import { PagedList, type PagedListActor } from '../components/paged-list/paged-list';
import { PageIntro } from '../components/page-intro';
import { LoadStates, type LoadActor } from '../home/load-states';
import { SafeHtml } from '../home/safe-html';
import { useDisplayFormat } from '../member/display-format';
import { ShareLinks } from './share-links';

export const STORY_TABS = ['article', 'video'] as const;
export type StoryTab = (typeof STORY_TABS)[number];

export function StoryTabs({ tab, children }: { tab: StoryTab; children: ReactNode }) {
  const { t } = useTranslation('promotion');
  return (
    <TabbedPage title={t('stories.title')} tabs={STORY_TABS} tab={tab} label={(k) => t(`stories.tabs.${k}`)} href={(k) => `/story/${k}`}>
      {children}
    </TabbedPage>
  );
}

/** A picture that hides itself when it cannot be loaded (a missing file, no network). */
function Picture({ src, alt, h }: { src: string | null; alt: string; h?: number }) {
  const [failed, setFailed] = useState(false);
  if (!src || failed) return null;
  return <Image src={src} alt={alt} h={h} radius="sm" fit="cover" onError={() => setFailed(true)} loading="lazy" />;
}

function StoryCard({ item, kind }: { item: StoryItem; kind: StoryTab }) {
  const f = useDisplayFormat();
  const { t } = useTranslation('promotion');
  const picture = kind === 'video' ? videoThumbnail(item) : item.image_preview;
  return (
    <Card withBorder radius="md" padding="sm" role="listitem" data-story={item.id} data-story-kind={kind}>
      <Group gap="sm" wrap="nowrap" align="flex-start">
        {picture && (
          <div style={{ width: 112, flexShrink: 0 }}>
            <Picture src={picture} alt={t(kind === 'video' ? 'stories.thumbnailOf' : 'stories.imageOf', { title: item.title })} h={72} />
          </div>
        )}
        <Stack gap={2} style={{ minWidth: 0 }}>
          <Anchor component={Link} href={`/story/${kind}/${item.id}`} fw={600} style={{ overflowWrap: 'anywhere' }}>
            {item.title}
          </Anchor>
          <Text size="sm" c="dimmed" lineClamp={2}>
            {item.description}
          </Text>
          <Text size="xs" c="dimmed">
            {f.date(item.updated_at)}
          </Text>
        </Stack>
      </Group>
    </Card>
  );
}

export function StoryListView({ actor, kind }: { actor: ActorRefFrom<typeof articlesListMachine>; kind: StoryTab }) {
  const { t } = useTranslation('promotion');
  return (
    <PagedList<StoryItem>
      actor={actor as unknown as PagedListActor<StoryItem>}
      emptyTitle={t(`stories.empty.${kind}`)}
      emptyDescription={t('stories.emptyDescription')}
      renderItems={(items) => (
        <Stack gap="xs">
          {items.map((i) => (
            <StoryCard key={i.id} item={i} kind={kind} />
          ))}
        </Stack>
      )}
    />
  );
}

/** A detail that does not exist (404): said so, with the way back to its list. */
function Missing({ kind }: { kind: StoryTab }) {
  const { t } = useTranslation('promotion');
  return (
    <Stack gap="sm" data-story-missing>
      <PageIntro title={t('stories.notFoundTitle')} description={t('stories.notFoundText')} />
      <Anchor component={Link} href={`/story/${kind}`}>
        {t(`stories.back.${kind}`)}
      </Anchor>
    </Stack>
  );
}

type Detail = ActorRefFrom<typeof articleDetailMachine> | ActorRefFrom<typeof videoDetailMachine>;
const useMissing = (actor: Detail) => useSelector(actor, (s) => s.value === 'error' && s.context.error?.status === 404);

export function ArticleView({ actor }: { actor: ActorRefFrom<typeof articleDetailMachine> }) {
  const { t } = useTranslation('promotion');
  const f = useDisplayFormat();
  if (useMissing(actor)) return <Missing kind="article" />;
  return (
    <LoadStates actor={actor as unknown as LoadActor<Article>} loadingLabel={t('stories.loading')}>
      {(a) => (
        <Stack gap="md" maw={760} component="article" data-article={a.id}>
          <Anchor component={Link} href="/story/article" size="sm">
            {t('stories.back.article')}
          </Anchor>
          <Title order={1} size="h2">
            {a.title}
          </Title>
          <Text size="xs" c="dimmed">
            {f.date(a.updated_at)}
          </Text>
          {a.description && <Text c="dimmed">{a.description}</Text>}
          <Picture src={a.image_preview} alt={t('stories.imageOf', { title: a.title })} />
          <SafeHtml html={a.content} />
          <ShareLinks url={absoluteUrl(`/member/story/article/${a.id}`)} text={a.title} />
        </Stack>
      )}
    </LoadStates>
  );
}

/** The player of a video: YouTube or Vimeo in their privacy-enhanced players, a file in the browser's, else a link. */
export function VideoPlayer({ video }: { video: StoryItem }) {
  const { t } = useTranslation('promotion');
  const source = videoSource(video.url);
  const poster = videoThumbnail(video) ?? undefined;
  if (!source)
    return (
      <Alert color="gray" data-video-player="link">
        {video.url ? (
          <Anchor href={video.url} target="_blank" rel="noopener noreferrer">
            {t('stories.watchElsewhere')}
          </Anchor>
        ) : (
          t('stories.noVideo')
        )}
      </Alert>
    );
  return (
    <AspectRatio ratio={16 / 9}>
      {source.kind === 'file' ? (
        <video controls preload="metadata" poster={poster} aria-label={t('stories.player', { title: video.title })} data-video-player="file" style={{ width: '100%', background: '#000' }}>
          <source src={source.src} type={source.type} />
        </video>
      ) : (
        <iframe
          src={source.embed}
          title={t('stories.player', { title: video.title })}
          data-video-player={source.kind}
          loading="lazy"
          referrerPolicy="strict-origin-when-cross-origin"
          sandbox="allow-scripts allow-same-origin allow-presentation allow-popups"
          allow="encrypted-media; fullscreen; picture-in-picture"
          allowFullScreen
          style={{ border: 0, width: '100%', height: '100%' }}
        />
      )}
    </AspectRatio>
  );
}

export function VideoView({ actor }: { actor: ActorRefFrom<typeof videoDetailMachine> }) {
  const { t } = useTranslation('promotion');
  const f = useDisplayFormat();
  if (useMissing(actor)) return <Missing kind="video" />;
  return (
    <LoadStates actor={actor as unknown as LoadActor<StoryItem>} loadingLabel={t('stories.loading')}>
      {(v) => (
        <Stack gap="md" maw={960} data-video={v.id}>
          <Anchor component={Link} href="/story/video" size="sm">
            {t('stories.back.video')}
          </Anchor>
          <Title order={1} size="h2">
            {v.title}
          </Title>
          <VideoPlayer video={v} />
          <Text size="xs" c="dimmed">
            {f.date(v.updated_at)}
          </Text>
          {v.description && <Text>{v.description}</Text>}
          <ShareLinks url={v.url && videoSource(v.url) ? v.url : absoluteUrl(`/member/story/video/${v.id}`)} text={v.title} />
        </Stack>
      )}
    </LoadStates>
  );
}
