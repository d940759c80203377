/**
 * /member/account/addresses, declared on the resource factory: the address book (list), the new-address
 * and edit forms (edit takes the address id as `input.params`), and delete with confirmation and undo.
 *
 * Each page is one actor holding what it shows as children, so it saves and restores as one:
 * - the address book: `list` (the paged list) and `remove` (delete); a delete or its undo loads the list
 *   again. The delete's `notify` and `forceLogout` reach the page's named actions, and `delete.undo`
 *   sent to the page reaches the delete (the success toast's Undo button);
 * - a form page: `form` (create or edit) and `countries` (the countries the signup offers, for the select).
 */
import { sendTo, setup, type AnyActorRef } from 'xstate';
import { addressApi } from '../../api/account';
import { authApi } from '../../api/auth';
import type { NotifyParams } from '../../lib/flow';
import { addressRequestSchema, EMPTY_ADDRESS, type Address, type AddressValues } from '../../schemas/account.schema';
import { createLoadMachine } from '../load.machine';
import { nextFromUrl } from '../paged-list.machine';
import { createResource, type DeleteEvent } from '../resource.machine';

/** The address book has no filters. */
export type AddressFilters = Record<string, never>;

export const addresses = createResource({
  id: 'address',
  api: {
    list: async ({ next, signal }): Promise<{ items: Address[]; next: ReturnType<typeof nextFromUrl> }> => {
      const page = await addressApi.list(next?.cursor, signal);
      return { items: page.items, next: nextFromUrl(page.next_page_url) };
    },
    get: addressApi.get,
    create: addressApi.create,
    update: addressApi.update,
    remove: addressApi.remove,
    restore: addressApi.restore,
  },
  schema: addressRequestSchema,
  initialValues: EMPTY_ADDRESS,
  valuesOf: (a: Address): AddressValues => ({
    first_name: a.first_name,
    last_name: a.last_name,
    company: a.company,
    address_1: a.address_1,
    address_2: a.address_2,
    city: a.city,
    postcode: a.postcode,
    email: a.email,
    phone: a.phone,
    country_id: String(a.country_id),
    zone_name: a.zone_name,
  }),
});

/** The countries of the address form: the list the signup offers. */
export const addressCountriesMachine = createLoadMachine('addressCountries', () => authApi.loginFields().then((f) => f.countries));

/** What a child tells its page: toasts and a forced logout reach the page's named actions (bound by the page). */
type PageNote = { type: 'page.notify'; params: NotifyParams } | { type: 'page.forceLogout' };
type Child = { self: AnyActorRef };
const tellPage = ({ self }: Child, note: PageNote | { type: 'address.changed' }) => self._parent?.send(note);
const reportToPage = {
  notify: (child: Child, params: NotifyParams) => tellPage(child, { type: 'page.notify', params }),
  forceLogout: (child: Child) => tellPage(child, { type: 'page.forceLogout' }),
};
const pageActions = {
  /** Bound by the page: the toast of an i18n key (a delete's offers Undo: `delete.undo` to the page). */
  notify: (_: unknown, _params: NotifyParams) => {},
  forceLogout: () => {},
};
const onPageNote = {
  'page.notify': { actions: { type: 'notify', params: ({ event }: { event: PageNote }) => (event.type === 'page.notify' ? event.params : null!) } },
  'page.forceLogout': { actions: 'forceLogout' },
} as const;

export type AddressBookEvent = DeleteEvent<number> | PageNote | { type: 'address.changed' };

/** The delete, reporting to the page that holds it. */
const removeInBook = addresses.remove.provide({
  actions: { ...reportToPage, removed: (child: Child) => tellPage(child, { type: 'address.changed' }), restored: (child: Child) => tellPage(child, { type: 'address.changed' }) },
});

export const addressBookMachine = setup({
  types: {
    events: {} as AddressBookEvent,
    children: {} as { list: 'list'; remove: 'remove' },
  },
  actors: { list: addresses.list, remove: removeInBook },
  actions: pageActions,
}).createMachine({
  id: 'addressBook',
  initial: 'browsing',
  states: {
    browsing: {
      invoke: [
        { id: 'list', src: 'list', input: { filters: {} as AddressFilters } },
        { id: 'remove', src: 'remove' },
      ],
      on: {
        'address.changed': { actions: sendTo('list', { type: 'list.refresh' }) },
        ...onPageNote,
        'delete.request': { actions: sendTo('remove', ({ event }) => event) },
        'delete.confirm': { actions: sendTo('remove', ({ event }) => event) },
        'delete.cancel': { actions: sendTo('remove', ({ event }) => event) },
        'delete.retry': { actions: sendTo('remove', ({ event }) => event) },
        'delete.undo': { actions: sendTo('remove', ({ event }) => event) },
        'delete.dismiss': { actions: sendTo('remove', ({ event }) => event) },
      },
    },
  },
});

/**
 * The new-address and edit pages: `form` (create, or with `input.params` the edit of that address) and
 * `countries` (the countries the signup offers, for the select).
 */
export const addressFormPageMachine = setup({
  types: {
    input: {} as { params?: number } | undefined,
    context: {} as { params: number | null },
    events: {} as { type: 'countries.retry' } | PageNote,
    children: {} as { form: 'create' | 'edit'; countries: 'countries' },
  },
  actors: {
    create: addresses.create.provide({ actions: reportToPage }),
    edit: addresses.edit.provide({ actions: reportToPage }),
    countries: addressCountriesMachine,
  },
  actions: pageActions,
  guards: { isEdit: ({ context }) => context.params !== null },
}).createMachine({
  id: 'addressFormPage',
  context: ({ input }) => ({ params: input?.params ?? null }),
  invoke: { id: 'countries', src: 'countries', input: {} },
  on: { 'countries.retry': { actions: sendTo('countries', { type: 'load.retry' }) }, ...onPageNote },
  initial: 'opening',
  states: {
    opening: { always: [{ guard: 'isEdit', target: 'editing' }, { target: 'creating' }] },
    creating: { invoke: { id: 'form', src: 'create' } },
    editing: { invoke: { id: 'form', src: 'edit', input: ({ context }) => ({ params: context.params ?? undefined }) } },
  },
});
