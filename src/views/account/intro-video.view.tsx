/**
 * /member/account/intro-video: the company's intro video. A YouTube or Vimeo address plays in the
 * service's privacy-enhanced player (an iframe with a title, reachable by keyboard); a video file plays in
 * the browser's own player. Any other address is refused by src/lib/video-embed.ts and the page says the
 * video cannot be shown. (With the intro_video switch off the route guard shows "not available".)
 */
import '@mantine/core/styles/AspectRatio.css';
import { Alert, AspectRatio, Anchor, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { PageIntro } from '../components/page-intro';
import { videoSource } from '../../lib/video-embed';

export function IntroVideoView({ url, company }: { url: string | null; company: string }) {
  const { t } = useTranslation('account');
  const source = videoSource(url);
  const title = t('introVideo.player', { company });
  return (
    <Stack gap="md" maw={960}>
      <PageIntro title={t('introVideo.title')} description={t('introVideo.description')} />
      {!source ? (
        <Alert color="gray" role="status" data-intro-video="unavailable">
          {url ? t('introVideo.badUrl') : t('introVideo.unavailable')}
        </Alert>
      ) : source.kind === 'file' ? (
        <AspectRatio ratio={16 / 9}>
          <video controls preload="metadata" aria-label={title} data-intro-video="file" style={{ width: '100%', background: '#000' }}>
            <source src={source.src} type={source.type} />
            <Text>
              {t('introVideo.notSupported')}{' '}
              <Anchor href={source.src} target="_blank" rel="noopener noreferrer">
                {t('introVideo.openFile')}
              </Anchor>
            </Text>
          </video>
        </AspectRatio>
      ) : (
        <AspectRatio ratio={16 / 9}>
          <iframe
            src={source.embed}
            title={title}
            data-intro-video={source.kind}
            loading="lazy"
            referrerPolicy="strict-origin-when-cross-origin"
            sandbox="allow-scripts allow-same-origin allow-presentation allow-popups"
            allow="autoplay; encrypted-media; fullscreen; picture-in-picture"
            allowFullScreen
            style={{ border: 0, width: '100%', height: '100%' }}
          />
        </AspectRatio>
      )}
    </Stack>
  );
}
