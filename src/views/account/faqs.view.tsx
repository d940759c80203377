/**
 * /member/account/faqs: the company's questions and answers as an accordion (each question a heading with
 * its button; the answer is the company's HTML shown by the shared safe-HTML component), with a search
 * kept in the URL (?keyword=). Loading, empty, no match, errors with retry and "load more" are the paged
 * list's.
 */
import '@mantine/core/styles/Accordion.css';
import { Accordion, Button, CloseButton, Group, Stack, TextInput } from '@mantine/core';
import { useSelector } from '@xstate/react';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { PageIntro } from '../components/page-intro';
import type { ActorRefFrom } from 'xstate';
import type { FaqsSearch, faqsListMachine } from '../../machines/account/faqs.machine';
import { FAQ_KEYWORD_MAX, type Faq } from '../../schemas/account-hub.schema';
import { PagedList, type PagedListActor } from '../components/paged-list/paged-list';
import { SafeHtml } from '../home/safe-html';

export interface FaqsViewProps {
  actor: ActorRefFrom<typeof faqsListMachine>;
  /** The search in the URL. */
  search: FaqsSearch;
  onSearch(search: FaqsSearch): void;
}

function SearchForm({ search, onSearch }: Pick<FaqsViewProps, 'search' | 'onSearch'>) {
  const { t } = useTranslation('account');
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const keyword = String(new FormData(e.currentTarget).get('keyword') ?? '').trim();
    onSearch(keyword ? { keyword } : {});
  };
  return (
    // A new URL keyword (Back, a pasted link) starts the field again from it.
    <form role="search" onSubmit={submit} key={search.keyword ?? ''} aria-label={t('faqs.search')}>
      <Group gap="xs" align="flex-end" wrap="nowrap">
        <TextInput
          name="keyword"
          type="search"
          label={t('faqs.search')}
          placeholder={t('faqs.searchPlaceholder')}
          defaultValue={search.keyword ?? ''}
          maxLength={FAQ_KEYWORD_MAX}
          style={{ flex: 1, minWidth: 0 }}
          rightSection={search.keyword ? <CloseButton aria-label={t('faqs.clear')} onClick={() => onSearch({})} /> : null}
        />
        <Button type="submit">{t('faqs.search')}</Button>
      </Group>
    </form>
  );
}

export function FaqsView({ actor, search, onSearch }: FaqsViewProps) {
  const { t } = useTranslation('account');
  const keyword = useSelector(actor, (s) => s.context.filters.keyword?.trim() || '');
  return (
    <Stack gap="md" maw={800}>
      <PageIntro title={t('faqs.title')} description={t('faqs.description')} />
      <SearchForm search={search} onSearch={onSearch} />
      <PagedList<Faq>
        actor={actor as unknown as PagedListActor<Faq>}
        emptyTitle={keyword ? t('faqs.noMatchTitle', { keyword }) : t('faqs.emptyTitle')}
        emptyDescription={keyword ? t('faqs.noMatchDescription') : t('faqs.emptyDescription')}
        emptyAction={
          keyword ? (
            <Button variant="light" onClick={() => onSearch({})}>
              {t('faqs.clear')}
            </Button>
          ) : undefined
        }
        renderItems={(items) => (
          <Accordion multiple order={2} variant="separated" chevronPosition="right">
            {items.map((f) => (
              <Accordion.Item key={f.id} value={String(f.id)} role="listitem" data-faq={f.id}>
                <Accordion.Control>{f.question}</Accordion.Control>
                <Accordion.Panel>
                  <SafeHtml html={f.answer} />
                </Accordion.Panel>
              </Accordion.Item>
            ))}
          </Accordion>
        )}
      />
    </Stack>
  );
}
