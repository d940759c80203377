/** Share links of spec §7 for a story: a messaging app, a microblog, a social network, a professional network, e-mail, and copy. */
import { Anchor, Button, CopyButton, Group } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { shareLinks, type ShareContent } from '../../lib/links';

export function ShareLinks({ url, text }: ShareContent) {
  const { t } = useTranslation(['common', 'promotion']);
  const links = shareLinks({ url, text });
  return (
    <Group gap="xs" wrap="wrap" component="nav" aria-label={t('promotion:stories.share')} data-share>
      {links.map((l) => (
        <Anchor key={l.key} href={l.href} target="_blank" rel="noopener noreferrer" size="sm" data-share-link={l.key}>
          {t(`common:share.${l.key}`)}
        </Anchor>
      ))}
      <CopyButton value={url}>
        {({ copied, copy }) => (
          <Button size="compact-sm" onClick={copy} variant={copied ? 'filled' : 'light'} color={copied ? 'teal' : undefined}>
            {copied ? t('common:share.copied') : t('common:share.copy')}
          </Button>
        )}
      </CopyButton>
    </Group>
  );
}
