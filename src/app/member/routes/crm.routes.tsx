/**
 * The CRM routes of spec §2 (/member/crm…), under the crm permission: the base goes to the dashboard; the
 * phone hub (/crm/index), the dashboard and its analytics (the period in the URL); leads as a list (filters
 * in the URL), a board, new, edit and detail; contacts, meetings and calls; sales (a new sale's form with its
 * lines) and invoices (mark sent, mark paid, the PDF).
 */
import i18next from 'i18next';
import { PERMISSIONS } from '../../../lib/menu';
import { createSearchCodec } from '../../../lib/search-codec';
import { showToast } from '../../../lib/toast';
import { contactApi, leadApi } from '../../../api/crm';
import { invoiceApi, saleApi } from '../../../api/crm-sales';
import { invoicePageMachine, invoicesListMachine, saleDetailMachine, saleForm, salesListMachine } from '../../../machines/crm/sales.machine';
import { invoiceListQuerySchema, saleListQuerySchema, type InvoiceFilters, type SaleFilters } from '../../../schemas/crm-sales.schema';
import { crmAnalyticsMachine, crmCountsMachine, crmDashboardMachine } from '../../../machines/crm/dashboard.machine';
import { leadBoardMachine, leadPageMachine, leads } from '../../../machines/crm/leads.machine';
import { calls, contactImportMachine, contactPageMachine, contacts, meetings } from '../../../machines/crm/people.machine';
import { crmAnalyticsQuerySchema, type CrmAnalyticsFilters } from '../../../schemas/crm-dashboard.schema';
import { CALL_DIRECTIONS, CALL_OUTCOMES, LEAD_INTERESTS, LEAD_SOURCES, LEAD_STATUSES, contactListQuerySchema, leadListQuerySchema, type ContactFilters, type LeadFilters } from '../../../schemas/crm.schema';
import type { FieldSpec } from '../../../views/crm/record-form.view';
import { browserBindings } from '../../bindings';
import { lazyView } from '../../lazy-view';
import { formActions } from '../member-forms';
import { page } from '../member-page';
import { comingSoon, redirect, SESSION, type MemberRoute, type PageEnv, type UrlBinding } from '../member-route';
import { resourceActions } from '../resource-actions';
import { FILES_MEMORY, formats, guarded, LOADED } from '../route-parts';

const leadViews = () => import('../../../views/crm/leads.view');
const LeadsListView = lazyView(() => leadViews().then((m) => m.LeadsListView));
const LeadPageView = lazyView(() => leadViews().then((m) => m.LeadPageView));
const peopleViews = () => import('../../../views/crm/people.view');
const ContactsListView = lazyView(() => peopleViews().then((m) => m.ContactsListView));
const ContactPageView = lazyView(() => peopleViews().then((m) => m.ContactPageView));
const ContactImportView = lazyView(() => peopleViews().then((m) => m.ContactImportView));
const CallsView = lazyView(() => peopleViews().then((m) => m.CallsView));
const MeetingsView = lazyView(() => peopleViews().then((m) => m.MeetingsView));
const salesViews = () => import('../../../views/crm/sales.view');
const SalesListView = lazyView(() => salesViews().then((m) => m.SalesListView));
const NewSaleView = lazyView(() => salesViews().then((m) => m.NewSaleView));
const SalePageView = lazyView(() => salesViews().then((m) => m.SalePageView));
const InvoicesListView = lazyView(() => salesViews().then((m) => m.InvoicesListView));
const InvoicePageView = lazyView(() => salesViews().then((m) => m.InvoicePageView));
const RecordFormView = lazyView(() => import('../../../views/crm/record-form.view').then((m) => m.RecordFormView));
const dashboardViews = () => import('../../../views/crm/dashboard.view');
const CrmDashboardView = lazyView(() => dashboardViews().then((m) => m.CrmDashboardView));
const CrmAnalyticsView = lazyView(() => dashboardViews().then((m) => m.CrmAnalyticsView));
const CrmIndexView = lazyView(() => dashboardViews().then((m) => m.CrmIndexView));
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

const contactsUrl: UrlBinding<typeof contacts.list, ContactFilters> = {
  codec: createSearchCodec(contactListQuerySchema, { fields: ['q'] }) as UrlBinding<typeof contacts.list, ContactFilters>['codec'],
  follow: { current: (s) => s.context.filters, event: (filters) => ({ type: 'list.setFilters', filters }) },
};

/** The analytics' period in the URL (?period=), followed by `load.refresh` with it. */
const analyticsUrl: UrlBinding<typeof crmAnalyticsMachine, CrmAnalyticsFilters> = {
  codec: createSearchCodec(crmAnalyticsQuerySchema, { fields: ['period'] }) as UrlBinding<typeof crmAnalyticsMachine, CrmAnalyticsFilters>['codec'],
  follow: { current: (s) => s.context.params ?? {}, event: (filters) => ({ type: 'load.refresh', params: filters }) },
};

const LEAD_FIELDS: FieldSpec[] = [
  { name: 'name', kind: 'text', required: true },
  { name: 'company', kind: 'text' },
  { name: 'email', kind: 'email' },
  { name: 'phone', kind: 'tel' },
  { name: 'estimated_value', kind: 'text' },
  { name: 'next_follow_up', kind: 'date' },
  { name: 'source', kind: 'choice', options: LEAD_SOURCES, optionsKey: 'source', required: true },
  { name: 'status', kind: 'choice', options: LEAD_STATUSES, optionsKey: 'status', required: true },
  { name: 'interest', kind: 'choice', options: LEAD_INTERESTS, optionsKey: 'interest', required: true },
  { name: 'lost_reason', kind: 'text' },
];
const CONTACT_FIELDS: FieldSpec[] = [
  { name: 'name', kind: 'text', required: true },
  { name: 'company', kind: 'text' },
  { name: 'email', kind: 'email' },
  { name: 'phone', kind: 'tel' },
  { name: 'city', kind: 'text' },
];
const CALL_FIELDS: FieldSpec[] = [
  { name: 'contact_id', kind: 'contact' },
  { name: 'lead_id', kind: 'lead' },
  { name: 'direction', kind: 'choice', options: CALL_DIRECTIONS, optionsKey: 'direction', required: true },
  { name: 'outcome', kind: 'choice', options: CALL_OUTCOMES, optionsKey: 'outcome', required: true },
  { name: 'date', kind: 'date', required: true },
  { name: 'time', kind: 'time', required: true },
  { name: 'duration_minutes', kind: 'number', required: true },
  { name: 'notes', kind: 'long' },
];
const MEETING_FIELDS: FieldSpec[] = [
  { name: 'title', kind: 'text', required: true },
  { name: 'invitees', kind: 'invitees' },
  { name: 'date', kind: 'date', required: true },
  { name: 'time', kind: 'time', required: true },
  { name: 'time_zone', kind: 'text', required: true },
  { name: 'duration_minutes', kind: 'number', required: true },
  { name: 'place', kind: 'text' },
  { name: 'link', kind: 'text' },
  { name: 'notes', kind: 'long' },
];

/** A record form page of an area: saved → back to `list`. */
type FormPageMachine = typeof contacts.formPage;
function formPage(path: string, id: string, machine: typeof leads.formPage | typeof contacts.formPage | typeof calls.formPage | typeof meetings.formPage, area: string, fields: FieldSpec[], list: string, edit = false) {
  // The three form pages have the same chart (createResource's formPage); only their values differ.
  const m = machine as FormPageMachine;
  return page(
    path,
    {
      id,
      machine: m,
      ...(edit ? { input: ({ params }: { params: Record<string, string | undefined> }) => ({ params: recordId(params.id) }) } : {}),
      provide: (pm: FormPageMachine, env: PageEnv) => pm.provide({ actions: { ...formActions(env.session), saved: () => go(list) } }),
      persist: SESSION,
      view: ({ actor }: { actor: unknown }) => <RecordFormView actor={actor as never} area={area} fields={fields} backTo={list} />,
    },
    { permission: crm },
  );
}

const downloadContacts = (filters: ContactFilters) =>
  contactApi.download(filters).catch((e: unknown) =>
    showToast({ kind: 'error', message: i18next.t((e as { status?: number } | null)?.status === 429 ? 'validation:throttle.exportsWait' : 'crm:leads.exportFailed') }),
  );

const downloadLeads = (filters: LeadFilters) =>
  leadApi.download(filters).catch((e: unknown) =>
    showToast({
      kind: 'error',
      message: i18next.t((e as { status?: number } | null)?.status === 429 ? 'validation:throttle.exportsWait' : 'crm:leads.exportFailed'),
    }),
  );


const salesUrl: UrlBinding<typeof salesListMachine, SaleFilters> = {
  codec: createSearchCodec(saleListQuerySchema, { fields: ['q', 'sort', 'date_range', 'start_date', 'end_date'] }) as UrlBinding<typeof salesListMachine, SaleFilters>['codec'],
  follow: { current: (s) => s.context.filters, event: (filters) => ({ type: 'list.setFilters', filters }) },
};
const invoicesUrl: UrlBinding<typeof invoicesListMachine, InvoiceFilters> = {
  codec: createSearchCodec(invoiceListQuerySchema, { fields: ['q', 'status', 'sort', 'date_range', 'start_date', 'end_date'] }) as UrlBinding<typeof invoicesListMachine, InvoiceFilters>['codec'],
  follow: { current: (s) => s.context.filters, event: (filters) => ({ type: 'list.setFilters', filters }) },
};

/** A CSV export of a list; a failure (or too many exports) is said in a toast. */
const exported = (download: Promise<unknown>) =>
  download.catch((e: unknown) =>
    showToast({ kind: 'error', message: i18next.t((e as { status?: number } | null)?.status === 429 ? 'validation:throttle.exportsWait' : 'crm:leads.exportFailed') }),
  );
/** An invoice's PDF; a failure is said in a toast. */
const downloadPdf = (id: number) => invoiceApi.pdf(id).catch(() => showToast({ kind: 'error', message: i18next.t('crm:invoices.pdfFailed') }));

const soon = (path: string, key: string, item?: boolean) => comingSoon(path, `menu.${key}`, item ? guarded(crm, 'crm', key) : { permission: crm });

export const crmRoutes: MemberRoute[] = [
  redirect('/crm', '/crm/dashboard', { permission: crm }),
  page(
    '/crm/index',
    {
      id: 'crm.index',
      machine: crmCountsMachine,
      persist: { kind: 'memory', reason: 'the counts are a glance at the moment; they load on every visit' },
      view: CrmIndexView,
    },
    { permission: crm },
  ),
  page('/crm/dashboard', { id: 'crm.dashboard', machine: crmDashboardMachine, ...LOADED, view: CrmDashboardView }, guarded(crm, 'crm', 'crmDashboard')),
  page(
    '/crm/dashboard/analytics',
    {
      id: 'crm.analytics',
      machine: crmAnalyticsMachine,
      input: ({ url }) => ({ params: url }),
      url: analyticsUrl,
      ...LOADED,
      view: ({ actor, url, setUrl }) => <CrmAnalyticsView actor={actor} filters={url} onFilters={setUrl} />,
    },
    guarded(crm, 'crm', 'crmAnalytics'),
  ),
  page(
    '/crm/leads',
    {
      id: 'crm.leads',
      machine: leads.list,
      input: ({ url }) => ({ filters: url }),
      url: leadsUrl,
      persist: { kind: 'memory', reason: 'leads are created, edited and moved on other pages; the list (its filters in the URL) loads afresh on every visit' },
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
  formPage('/crm/leads/new', 'crm.leads.new', leads.formPage, 'leads', LEAD_FIELDS, '/crm/leads'),
  redirect('/crm/leads/edit', '/crm/leads', { permission: crm }),
  formPage('/crm/leads/edit/:id', 'crm.leads.edit', leads.formPage, 'leads', LEAD_FIELDS, '/crm/leads', true),
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
  page(
    '/crm/contacts',
    {
      id: 'crm.contacts',
      machine: contacts.list,
      input: ({ url }) => ({ filters: url }),
      url: contactsUrl,
      persist: { kind: 'memory', reason: 'contacts are created, edited and imported on other pages; the list (its filters in the URL) loads afresh on every visit' },
      view: ({ actor, url, setUrl }) => <ContactsListView actor={actor} filters={url} onFilters={setUrl} onDownload={() => void downloadContacts(url)} />,
    },
    guarded(crm, 'crm', 'contacts'),
  ),
  formPage('/crm/contacts/new', 'crm.contacts.new', contacts.formPage, 'contacts', CONTACT_FIELDS, '/crm/contacts'),
  page(
    '/crm/contacts/import',
    {
      id: 'crm.contacts.import',
      machine: contactImportMachine,
      provide: (m, env) => m.provide({ actions: formActions(env.session) }),
      persist: FILES_MEMORY,
      view: ContactImportView,
    },
    { permission: crm },
  ),
  formPage('/crm/contacts/edit/:id', 'crm.contacts.edit', contacts.formPage, 'contacts', CONTACT_FIELDS, '/crm/contacts', true),
  page(
    '/crm/contacts/:id',
    {
      id: 'crm.contacts.detail',
      machine: contactPageMachine,
      input: ({ params }) => ({ params: recordId(params.id) }),
      provide: (m, env) => m.provide({ actions: { ...resourceActions(env.session), left: () => go('/crm/contacts') } }),
      persist: { kind: 'memory', reason: 'the timeline changes with every note, call and meeting; the contact loads afresh on every visit' },
      view: ({ actor, env }) => <ContactPageView actor={actor} datePattern={formats(env).datePattern} />,
    },
    { permission: crm },
  ),
  page(
    '/crm/sales',
    {
      id: 'crm.sales',
      machine: salesListMachine,
      input: ({ url }) => ({ filters: url }),
      url: salesUrl,
      persist: { kind: 'memory', reason: 'sales are recorded on the new-sale page; the list loads afresh on every visit' },
      view: ({ actor, url, setUrl, env }) => <SalesListView actor={actor} filters={url} onFilters={setUrl} onDownload={() => void exported(saleApi.download(url))} {...formats(env)} />,
    },
    guarded(crm, 'crm', 'sales'),
  ),
  page(
    '/crm/sales/new',
    {
      id: 'crm.sales.new',
      machine: saleForm,
      provide: (m, env) => m.provide({ actions: { ...formActions(env.session), apply: (_, p) => go(`/crm/sales/${p.result.id}`) } }),
      persist: SESSION,
      view: ({ actor, env }) => <NewSaleView actor={actor} currency={formats(env).currency} />,
    },
    { permission: crm },
  ),
  page(
    '/crm/sales/:id',
    {
      id: 'crm.sales.detail',
      machine: saleDetailMachine,
      input: ({ params }) => ({ params: recordId(params.id) }),
      persist: { kind: 'memory', reason: 'the invoice status of a sale changes from its invoice page; the sale loads afresh on every visit' },
      view: ({ actor, env }) => <SalePageView actor={actor} {...formats(env)} />,
    },
    { permission: crm },
  ),
  page(
    '/crm/invoices',
    {
      id: 'crm.invoices',
      machine: invoicesListMachine,
      input: ({ url }) => ({ filters: url }),
      url: invoicesUrl,
      persist: { kind: 'memory', reason: 'invoices change status on their own page and with the date; the list loads afresh on every visit' },
      view: ({ actor, url, setUrl, env }) => (
        <InvoicesListView actor={actor} filters={url} onFilters={setUrl} onDownload={() => void exported(invoiceApi.download(url))} {...formats(env)} />
      ),
    },
    guarded(crm, 'crm', 'invoices'),
  ),
  page(
    '/crm/invoices/:id',
    {
      id: 'crm.invoices.detail',
      machine: invoicePageMachine,
      input: ({ params }) => ({ params: recordId(params.id) }),
      provide: (m, env) => m.provide({ actions: formActions(env.session) }),
      persist: { kind: 'memory', reason: 'an invoice changes status with its actions and with the date; it loads afresh on every visit' },
      view: ({ actor, env }) => <InvoicePageView actor={actor} onPdf={(i) => void downloadPdf(i.id)} {...formats(env)} />,
    },
    { permission: crm },
  ),
  page(
    '/crm/meetings',
    {
      id: 'crm.meetings',
      machine: meetings.book,
      provide: (m, env) => m.provide({ actions: resourceActions(env.session) }),
      persist: { kind: 'memory', reason: 'the agenda moves with the clock; it loads afresh on every visit' },
      view: MeetingsView,
    },
    guarded(crm, 'crm', 'meetings'),
  ),
  formPage('/crm/meetings/new', 'crm.meetings.new', meetings.formPage, 'meetings', MEETING_FIELDS, '/crm/meetings'),
  formPage('/crm/meetings/edit/:id', 'crm.meetings.edit', meetings.formPage, 'meetings', MEETING_FIELDS, '/crm/meetings', true),
  page(
    '/crm/calls',
    {
      id: 'crm.calls',
      machine: calls.book,
      provide: (m, env) => m.provide({ actions: resourceActions(env.session) }),
      persist: { kind: 'memory', reason: 'calls are logged on the form page; the log loads afresh on every visit' },
      view: ({ actor, env }) => <CallsView actor={actor} datePattern={formats(env).datePattern} />,
    },
    guarded(crm, 'crm', 'calls'),
  ),
  formPage('/crm/calls/new', 'crm.calls.new', calls.formPage, 'calls', CALL_FIELDS, '/crm/calls'),
];
