/**
 * One factory for the CRUD areas of the member back office (CRM entities, addresses, tickets, mail):
 * a declaration gives the calls and the shared schema, and gets back the machines of every screen:
 *
 *   export const addresses = createResource({
 *     id: 'address',
 *     api: { list: ({ filters, next, signal }) => …, get: addressApi.get, create: addressApi.create,
 *            update: addressApi.update, remove: addressApi.remove, restore: addressApi.restore },
 *     schema: addressRequestSchema,
 *     initialValues: EMPTY_ADDRESS,
 *     valuesOf: (a) => ({ … }),
 *   });
 *   // addresses.list (paged list), addresses.detail (load, params = id), addresses.create and
 *   // addresses.edit (forms; edit takes input { params: id }), addresses.remove (delete with undo)
 *
 * Deleting asks for confirmation, then, when the API can restore what it deleted, offers an undo
 * window (`undoWindow`, as long as a toast stays). Failures are classified as everywhere else
 * (classifyFailure): connection and server trouble wait for a retry, a 401 is a forced logout,
 * demo_blocked is the featureUnavailableInDemo toast, a refusal is shown until dismissed.
 */
import { assign, fromPromise, sendParent, sendTo, setup, type AnyActorRef, type AnyStateMachine } from 'xstate';
import type * as z from 'zod/mini';
import { classifyFailure, type ErrorInfo, type Failure } from '../api/errors';
import type { NotifyParams } from '../lib/flow';
import { factoryStamp } from './factory-registry';
import { blockedErrors, createFormMachine, failed, failureGuards, failureIs, type FormValues } from './form.machine';
import { createLoadMachine } from './load.machine';
import { createPagedListMachine, type FetchPageArgs, type PageResult } from './paged-list.machine';

export type RecordId = string | number;

export interface DeleteContext<Id extends RecordId> {
  /** The record being deleted (or just deleted, while it can be restored). */
  target: Id | null;
  error: ErrorInfo | null;
  failure: Failure | null;
}

export type DeleteEvent<Id extends RecordId> =
  | { type: 'delete.request'; id: Id }
  | { type: 'delete.confirm' }
  | { type: 'delete.cancel' }
  | { type: 'delete.retry' }
  | { type: 'delete.undo' }
  | { type: 'delete.dismiss' };

/** How long a deleted record can be restored: as long as the success toast that offers it stays. */
export const UNDO_WINDOW_MS = 5000;

/**
 * Delete with confirmation: idle → confirming → deleting → deleted, and with `restore`, an undo
 * window in which `delete.undo` restores the record (restoring → idle). `removed` and `restored`
 * (named actions, bound by the page) refresh what shows the record.
 */
export function createDeleteMachine<Id extends RecordId>(
  id: string,
  api: { remove: (id: Id) => Promise<unknown>; restore?: (id: Id) => Promise<unknown> },
  /** The toast once done (an i18n key), when the record's own words say it better than "deleted". */
  options: { doneKey?: string } = {},
) {
  type Ctx = DeleteContext<Id>;
  const setFailure = { type: 'setFailure', params: failed } as const;
  const request = { 'delete.request': { target: 'confirming', actions: 'takeTarget' } } as const;
  /** A call on the target record (`remove` or `restore`), tagged busy. */
  const calling = <const Done, const Errors>(src: 'remove' | 'restore', onDone: Done, onError: Errors) =>
    ({ tags: ['busy'], invoke: { id: src, src, input: ({ context }: { context: Ctx }) => context.target, onDone, onError } }) as const;
  /** Connection or server trouble: `delete.retry` deletes again. */
  const retryable = {
    tags: ['error'],
    on: { 'delete.retry': { target: 'deleting', actions: 'clearFailure' }, 'delete.cancel': { target: 'idle', actions: 'forget' } },
  } as const;
  const undo = api.restore
    ? {
        on: { ...request, 'delete.undo': 'restoring' },
        after: { undoWindow: { target: 'idle', actions: 'forget' } },
      } as const
    : ({ on: request } as const);

  return setup({
    types: { context: {} as Ctx, events: {} as DeleteEvent<Id>, tags: {} as 'busy' | 'error' },
    actors: {
      // Loosely typed: xstate's invoke typing cannot resolve generic actor types.
      remove: fromPromise<unknown, unknown>(({ input }) => api.remove(input as Id)),
      restore: fromPromise<unknown, unknown>(({ input }) => (api.restore ? api.restore(input as Id) : Promise.reject(new Error('No restore declared')))),
    },
    delays: { undoWindow: UNDO_WINDOW_MS },
    actions: {
      notify: (_, _params: NotifyParams) => {},
      /** Bound by the page: the record is gone (refresh the list, leave its detail). */
      removed: (_, _params: { id: Id }) => {},
      /** Bound by the page: the record is back. */
      restored: (_, _params: { id: Id }) => {},
      forceLogout: () => {},
      takeTarget: assign(({ event }) => (event.type === 'delete.request' ? { target: event.id, error: null, failure: null } : {})),
      forget: assign({ target: null, error: null, failure: null }),
      clearFailure: assign({ error: null, failure: null }),
      setFailure: assign((_, e: ErrorInfo) => ({ error: e, failure: classifyFailure(e) })),
    },
    guards: failureGuards,
  }).createMachine({
    id,
    meta: factoryStamp('createDeleteMachine'),
    context: { target: null, error: null, failure: null },
    initial: 'idle',
    states: {
      idle: { on: request },
      confirming: {
        on: { 'delete.confirm': 'deleting', 'delete.cancel': { target: 'idle', actions: 'forget' } },
      },
      deleting: calling(
        'remove',
        {
          target: 'deleted',
          actions: [
            { type: 'removed', params: ({ context }: { context: Ctx }) => ({ id: context.target! }) },
            { type: 'notify', params: { kind: 'success', key: options.doneKey ?? (api.restore ? 'common:resource.deletedUndo' : 'common:resource.deleted') } },
          ],
        },
        [
          ...blockedErrors('idle'),
          { guard: failureIs('connectionLost'), target: 'connectionError', actions: setFailure },
          { guard: failureIs('serverFailed'), target: 'serverError', actions: setFailure },
          { target: 'refused', actions: setFailure },
        ],
      ),
      connectionError: retryable,
      serverError: retryable,
      /** The server would not delete it (not found, not allowed): said until dismissed. */
      refused: {
        tags: ['error'],
        on: { ...request, 'delete.dismiss': { target: 'idle', actions: 'forget' } },
      },
      deleted: undo,
      // Undo: only where the API can restore what it deleted.
      ...(api.restore
        ? {
            restoring: calling(
              'restore',
              {
                target: 'idle',
                actions: [
                  { type: 'restored', params: ({ context }: { context: Ctx }) => ({ id: context.target! }) },
                  { type: 'notify', params: { kind: 'success', key: 'common:resource.restored' } },
                  'forget',
                ],
              },
              [...blockedErrors('idle'), { target: 'restoreError', actions: setFailure }],
            ),
            /** Undo failed: try again, or leave the record deleted. */
            restoreError: {
              tags: ['error'],
              on: { 'delete.undo': { target: 'restoring', actions: 'clearFailure' }, 'delete.dismiss': { target: 'idle', actions: 'forget' } },
            },
          }
        : // Typed as if present, so the state values of every delete machine read the same.
          ({} as never)),
      forceLogout: { tags: ['error'], entry: 'forceLogout' },
    },
  });
}

export interface ResourceApi<T, F, M, Id extends RecordId, V, Rec> {
  list: (args: FetchPageArgs<F>) => Promise<PageResult<T, M>>;
  get: (id: Id) => Promise<Rec>;
  create: (values: V) => Promise<Rec>;
  update: (id: Id, values: V) => Promise<Rec>;
  remove: (id: Id) => Promise<unknown>;
  /** Undo of a delete, where the API keeps deleted records for a while. */
  restore?: (id: Id) => Promise<unknown>;
}

export interface ResourceDeclaration<T, F, M, Id extends RecordId, V extends FormValues, Rec> {
  /** Names the machines: `<id>List`, `<id>Detail`, `<id>Create`, `<id>Edit`, `<id>Delete`. */
  id: string;
  api: ResourceApi<T, F, M, Id, V, Rec>;
  /** The shared zod schema of the create/edit body. */
  schema: z.ZodMiniType;
  /** The empty create form. */
  initialValues: V;
  /** The edit form's values of a loaded record. */
  valuesOf: (record: Rec) => V;
  /** What the create and edit forms choose from (countries, categories…), loaded with the form page. */
  choices?: () => Promise<unknown>;
}

/** What a screen's child tells the page that holds it: toasts and a forced logout reach the page's named actions. */
export type PageNote = { type: 'page.notify'; params: NotifyParams } | { type: 'page.forceLogout' };
export type Child = { self: AnyActorRef };
/** A child machine tells the page actor that holds it. */
export const tellPage = ({ self }: Child, note: PageNote | { type: 'record.changed' }) => self._parent?.send(note);
export const reportToPage = {
  notify: (child: Child, params: NotifyParams) => tellPage(child, { type: 'page.notify', params }),
  forceLogout: (child: Child) => tellPage(child, { type: 'page.forceLogout' }),
};
/**
 * A child form saved its record: the page decides where the member goes next. Sent once the form has taken
 * its saved state (`sendParent` is deferred): the page's snapshot saved in the tab then holds the finished
 * form, never the request in flight (a page reopened on that would wait for an answer that never comes).
 */
const savedToPage = sendParent({ type: 'record.saved' });
export const pageActions = {
  /** Bound by the page: the toast of an i18n key (a delete's offers Undo: `delete.undo` to the page). */
  notify: (_: unknown, _params: NotifyParams) => {},
  forceLogout: () => {},
};
export const onPageNote = {
  'page.notify': { actions: { type: 'notify', params: ({ event }: { event: PageNote }) => (event.type === 'page.notify' ? event.params : null!) } },
  'page.forceLogout': { actions: 'forceLogout' },
} as const;

export type BookEvent<Id extends RecordId> = DeleteEvent<Id> | PageNote | { type: 'record.changed' };
const DELETE_EVENTS = ['delete.request', 'delete.confirm', 'delete.cancel', 'delete.retry', 'delete.undo', 'delete.dismiss'] as const;

/**
 * The list page of a CRUD area as one actor (so it saves and restores as one): `list` (the paged list)
 * and `remove` (delete with undo) as children; a delete or its undo loads the list again. The page's
 * `delete.*` events reach the delete (the success toast's Undo button sends `delete.undo`).
 */
function createBookMachine<F, Id extends RecordId>(id: string, list: AnyStateMachine, remove: AnyStateMachine) {
  const changed = (child: Child) => tellPage(child, { type: 'record.changed' });
  return setup({
    types: {
      events: {} as BookEvent<Id>,
      input: {} as { filters?: F } | void,
      context: {} as { filters: F },
      children: {} as { list: 'list'; remove: 'remove' },
    },
    actors: { list, remove: remove.provide({ actions: { ...reportToPage, removed: changed, restored: changed } }) },
    actions: pageActions,
  }).createMachine({
    id,
    meta: factoryStamp('createResource'),
    context: ({ input }) => ({ filters: (input && input.filters) || ({} as F) }),
    initial: 'browsing',
    states: {
      browsing: {
        invoke: [
          { id: 'list', src: 'list', input: ({ context }: { context: { filters: F } }) => ({ filters: context.filters }) },
          { id: 'remove', src: 'remove' },
        ],
        on: {
          'record.changed': { actions: sendTo('list', { type: 'list.refresh' }) },
          ...onPageNote,
          ...Object.fromEntries(DELETE_EVENTS.map((type) => [type, { actions: sendTo('remove', ({ event }) => event) }])),
        },
      },
    },
  });
}

/**
 * The new and edit pages of a CRUD area as one actor: `form` (create, or with `input.params` the edit of
 * that record) and `choices` (what the form chooses from, loaded with the page; `choices.retry`).
 */
function createFormPageMachine<Id extends RecordId>(id: string, create: AnyStateMachine, edit: AnyStateMachine, choices: AnyStateMachine) {
  return setup({
    types: {
      input: {} as { params?: Id } | undefined,
      context: {} as { params: Id | null },
      events: {} as { type: 'choices.retry' } | { type: 'record.saved' } | PageNote,
      children: {} as { form: 'create' | 'edit'; choices: 'choices' },
    },
    actors: {
      create: create.provide({ actions: { ...reportToPage, apply: savedToPage } }),
      edit: edit.provide({ actions: { ...reportToPage, apply: savedToPage } }),
      choices,
    },
    actions: {
      ...pageActions,
      /** Bound by the page: where a member goes once the record is saved (back to the list). */
      saved: () => {},
    },
    guards: { isEdit: ({ context }) => context.params !== null },
  }).createMachine({
    id,
    meta: factoryStamp('createResource'),
    context: ({ input }) => ({ params: input?.params ?? null }),
    invoke: { id: 'choices', src: 'choices', input: {} },
    on: { 'choices.retry': { actions: sendTo('choices', { type: 'load.retry' }) }, 'record.saved': { actions: 'saved' }, ...onPageNote },
    initial: 'opening',
    states: {
      opening: { always: [{ guard: 'isEdit', target: 'editing' }, { target: 'creating' }] },
      // A new record saved: a fresh form, so "New …" opened again in this tab starts blank.
      creating: { invoke: { id: 'form', src: 'create' }, on: { 'record.saved': { target: 'creating', reenter: true, actions: 'saved' } } },
      editing: { invoke: { id: 'form', src: 'edit', input: ({ context }: { context: { params: Id | null } }) => ({ params: context.params ?? undefined }) } },
    },
  });
}

/**
 * The machines of one CRUD area: list, detail, create, edit (input { params: id }) and remove, and the
 * two page actors made of them: `book` (list + delete) and `formPage` (create or edit + choices).
 */
export function createResource<T, F, M, Id extends RecordId, V extends FormValues, Rec>(declaration: ResourceDeclaration<T, F, M, Id, V, Rec>) {
  const { id, api, schema, initialValues, valuesOf, choices } = declaration;
  const list = createPagedListMachine<T, F, M>(`${id}List`, api.list);
  const create = createFormMachine({
    id: `${id}Create`,
    initialValues,
    schema,
    submit: ({ values }) => api.create(values),
    successKey: 'common:resource.created',
    clearOnSuccess: true,
  });
  const edit = createFormMachine<V, Rec, Rec, { values: V; result: Rec }, 'form', Id>({
    id: `${id}Edit`,
    initialValues,
    load: (recordId) => api.get(recordId as Id),
    valuesFrom: (record) => valuesOf(record),
    schema,
    submit: ({ values, params }) => api.update(params as Id, values),
    successKey: 'common:resource.saved',
  });
  const remove = createDeleteMachine<Id>(`${id}Delete`, { remove: api.remove, restore: api.restore });
  const choicesMachine = createLoadMachine<unknown, void>(`${id}Choices`, choices ?? (() => Promise.resolve(null)));
  return {
    list,
    detail: createLoadMachine<Rec, Id>(`${id}Detail`, api.get),
    create,
    edit,
    remove,
    choices: choicesMachine,
    book: createBookMachine<F, Id>(`${id}Book`, list, remove),
    formPage: createFormPageMachine<Id>(`${id}FormPage`, create, edit, choicesMachine),
  };
}

/** The delete machine with undo, as `npm run flows` draws it; provide `remove` and `restore` per use. */
export const deleteMachine = createDeleteMachine<RecordId>('delete', {
  remove: () => Promise.reject(new Error('No remove provided')),
  restore: () => Promise.reject(new Error('No restore provided')),
});
