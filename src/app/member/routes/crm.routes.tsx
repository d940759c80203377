/**
 * The CRM routes of spec §2 (/member/crm…), under the crm permission: the base goes to the dashboard;
 * leads as a list (filters in the URL), a board, new, edit and detail; the sections not built yet show the
 * coming-soon page under their menu items.
 */
import i18next from 'i18next';
import { PERMISSIONS } from '../../../lib/menu';
import { createSearchCodec } from '../../../lib/search-codec';
import { showToast } from '../../../lib/toast';
import { leadApi } from '../../../api/crm';
import { leadBoardMachine, leadPageMachine, leads } from '../../../machines/crm/leads.machine';
import { leadListQuerySchema, type LeadFilters } from '../../../schemas/crm.schema';
import { browserBindings } from '../../bindings';
import { lazyView } from '../../lazy-view';
import { formActions } from '../member-forms';
import { page } from '../member-page';
import { comingSoon, redirect, SESSION, type MemberRoute, type PageEnv, type UrlBinding } from '../member-route';
import { resourceActions } from '../resource-actions';
import { formats, guarded } from '../route-parts';

const leadViews = () => import('../../../views/crm/leads.view');
const LeadsListView = lazyView(() => leadViews().then((m) => m.LeadsListView));
const LeadFormView = lazyView(() => leadViews().then((m) => m.LeadFormView));
const LeadPageView = lazyView(() => leadViews().then((m) => m.LeadPageView));
// The board brings the drag-and-drop library: loaded only with the board.
const LeadBoardView = lazyView(() => import('../../../views/crm/lead-board.view').then((m) => m.LeadBoardView));

const crm = PERMISSIONS.crm;
/** A positive whole record id, or -1 (the server answers not found). */
const recordId = (id: string | undefined) => (Number.isInteger(Number(id)) && Number(id) > 0 ? Number(id) : -1);
const go = (path: string) => browserBindings.navigate(`/member${path}`);

/** The leads list's filters in the URL (?q=&status=&source=&start_date=&end_date=&sort=), followed by `list.setFilters`. */
const leadsUrl: UrlBinding<typeof leads.list, LeadFilters> = {
  codec: createSearchCodec(leadListQuerySchema, { fields: ['q', 'status', 'source', 'sort', 'date_range', 'start_date', 'end_date'] }) as UrlBinding<typeof leads.list, LeadFilters>['codec'],
  follow: { current: (s) => s.context.filters, event: (filters) => ({ type: 'list.setFilters', filters }) },
};

const downloadLeads = (filters: LeadFilters) =>
  leadApi.download(filters).catch((e: unknown) =>
    showToast({
      kind: 'error',
      message: i18next.t((e as { status?: number } | null)?.status === 429 ? 'validation:throttle.exportsWait' : 'crm:leads.exportFailed'),
    }),
  );

/** The lead form pages: toasts, the forced logout of a 401, and to the list once saved. */
const bindLeadForm = (m: typeof leads.formPage, env: PageEnv) => m.provide({ actions: { ...formActions(env.session), saved: () => go('/crm/leads') } });

const soon = (path: string, key: string, item?: boolean) => comingSoon(path, `menu.${key}`, item ? guarded(crm, 'crm', key) : { permission: crm });

export const crmRoutes: MemberRoute[] = [
  redirect('/crm', '/crm/dashboard', { permission: crm }),
  soon('/crm/index', 'crm'),
  soon('/crm/dashboard', 'crmDashboard', true),
  soon('/crm/dashboard/analytics', 'crmAnalytics', true),
  page(
    '/crm/leads',
    {
      id: 'crm.leads',
      machine: leads.list,
      input: ({ url }) => ({ filters: url }),
      url: leadsUrl,
      persist: SESSION,
      view: ({ actor, url, setUrl, env }) => (
        <LeadsListView actor={actor} filters={url} onFilters={setUrl} onDownload={() => void downloadLeads(url)} {...formats(env)} />
      ),
    },
    guarded(crm, 'crm', 'leads'),
  ),
  page(
    '/crm/leads/board',
    {
      id: 'crm.leads.board',
      machine: leadBoardMachine,
      provide: (m, env) => m.provide({ actions: formActions(env.session) }),
      persist: { kind: 'memory', reason: 'the board can hold thousands of cards and is loaded afresh on every visit' },
      view: ({ actor, env }) => <LeadBoardView actor={actor} {...formats(env)} />,
    },
    { permission: crm },
  ),
  page('/crm/leads/new', { id: 'crm.leads.new', machine: leads.formPage, provide: bindLeadForm, persist: SESSION, view: LeadFormView }, { permission: crm }),
  redirect('/crm/leads/edit', '/crm/leads', { permission: crm }),
  page(
    '/crm/leads/edit/:id',
    { id: 'crm.leads.edit', machine: leads.formPage, input: ({ params }) => ({ params: recordId(params.id) }), provide: bindLeadForm, persist: SESSION, view: LeadFormView },
    { permission: crm },
  ),
  page(
    '/crm/leads/:id',
    {
      id: 'crm.leads.detail',
      machine: leadPageMachine,
      input: ({ params }) => ({ params: recordId(params.id) }),
      provide: (m, env) => m.provide({ actions: { ...resourceActions(env.session), left: () => go('/crm/leads') } }),
      persist: { kind: 'memory', reason: 'the timeline changes with every note, call and meeting; the lead loads afresh on every visit' },
      view: ({ actor, env }) => <LeadPageView actor={actor} {...formats(env)} />,
    },
    { permission: crm },
  ),
  soon('/crm/contacts', 'contacts', true),
  soon('/crm/sales', 'sales', true),
  soon('/crm/sales/new', 'sales'),
  soon('/crm/sales/:id', 'sales'),
  soon('/crm/invoices', 'invoices', true),
  soon('/crm/invoices/:id', 'invoices'),
  soon('/crm/meetings', 'meetings', true),
  soon('/crm/meetings/new', 'meetings'),
  soon('/crm/calls', 'calls', true),
  soon('/crm/calls/new', 'calls'),
];
