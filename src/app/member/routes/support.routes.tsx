/**
 * Support (spec §2 /member/support, always in the menu). With the company's ticketing on: the member's
 * tickets (?status= in the URL), a new ticket (/support/new) and one ticket (/support/tickets/:id). With it
 * off: the company's support e-mail and phone with the messaging links, and a message to support by mail.
 */
import i18next from 'i18next';
import { showToast } from '../../../lib/toast';
import { createSearchCodec } from '../../../lib/search-codec';
import { validSupportEmail } from '../../../lib/links';
import { newTicketMachine, ticketPageMachine, ticketsListMachine, type TicketsSearch } from '../../../machines/support/support.machine';
import { ticketsQuerySchema } from '../../../schemas/support.schema';
import { supportApi } from '../../../api/support';
import { browserBindings } from '../../bindings';
import { lazyView } from '../../lazy-view';
import { formActions } from '../member-forms';
import { page } from '../member-page';
import { staticPage, type MemberRoute, type PageEnv, type UrlBinding } from '../member-route';
import { FILES_MEMORY, menu } from '../route-parts';

const views = () => import('../../../views/support/support.view');
const TicketsView = lazyView(() => views().then((m) => m.TicketsView));
const NewTicketView = lazyView(() => views().then((m) => m.NewTicketView));
const TicketView = lazyView(() => views().then((m) => m.TicketView));
const SupportContactView = lazyView(() => views().then((m) => m.SupportContactView));

const ticketingOn = (env: PageEnv) => !!env.moduleData?.modules.ticketing_system;

/** The company's support contacts (spec §5: the support e-mail when valid, else the company's). */
function Contact({ env }: { env: PageEnv }) {
  const company = env.moduleData?.company;
  return <SupportContactView email={company ? validSupportEmail(company) : ''} phone={company?.phone ?? null} company={company?.name ?? ''} />;
}

/** Save one of the member's own files; a failure is a toast. */
const download = (url: string, name: string) => {
  supportApi.downloadFile(url, name).catch(() => showToast({ kind: 'error', message: i18next.t('support:tickets.downloadFailed') }));
};

const ticketsUrl: UrlBinding<typeof ticketsListMachine, TicketsSearch> = {
  codec: createSearchCodec(ticketsQuerySchema, { fields: ['status'] }),
  follow: { current: (s) => s.context.filters, event: (filters) => ({ type: 'list.setFilters', filters }) },
};

/** A positive whole record id, or -1 (the server answers not found). */
const recordId = (id: string | undefined) => (Number.isInteger(Number(id)) && Number(id) > 0 ? Number(id) : -1);

const ticketsPage = page('/support', {
  id: 'support.tickets',
  machine: ticketsListMachine,
  input: ({ url }) => ({ filters: url }),
  url: ticketsUrl,
  // A ticket opened or answered elsewhere changes the list: it loads afresh on every visit.
  persist: { kind: 'memory', reason: 'tickets change on the ticket pages and by support; the list loads afresh on every visit' },
  view: ({ actor, url, setUrl }) => <TicketsView actor={actor} search={url} onSearch={setUrl} />,
});

export const supportRoutes: MemberRoute[] = [
  staticPage('/support', (env) => (ticketingOn(env) ? ticketsPage.render({}) : <Contact env={env} />), menu('support')),
  page('/support/new', {
    id: 'support.new',
    machine: newTicketMachine,
    provide: (m, env) =>
      m.provide({ actions: { ...formActions(env.session), apply: (_, { id }: { id: number }) => browserBindings.navigate(`/member/support/tickets/${id}`) } }),
    persist: FILES_MEMORY,
    view: ({ actor, env }) => (ticketingOn(env) ? <NewTicketView actor={actor} /> : <Contact env={env} />),
  }),
  page('/support/tickets/:id', {
    id: 'support.ticket',
    machine: ticketPageMachine,
    input: ({ params }) => ({ params: recordId(params.id) }),
    provide: (m, env) => m.provide({ actions: formActions(env.session) }),
    persist: FILES_MEMORY,
    view: ({ actor, env }) => (ticketingOn(env) ? <TicketView actor={actor} download={download} /> : <Contact env={env} />),
  }),
];
