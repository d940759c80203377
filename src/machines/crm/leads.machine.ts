/**
 * The member's leads (/member/crm/leads…), declared on the resource factory: the list (filters from the
 * URL), the new and edit forms, the delete with undo. Two page actors of their own:
 *
 * - `leadPageMachine` (/crm/leads/{id}): the lead with its timeline (a load), the note form (a form
 *   declaration; a saved note loads the timeline again) and the delete (leaving the page once deleted);
 * - `leadBoardMachine` (/crm/leads/board): the leads by status; a move (drag and drop, by mouse or by
 *   keyboard) shows at once, is saved, and is put back with an error toast when the save fails.
 */
import { assign, fromPromise, sendTo, setup, type AnyStateMachine } from 'xstate';
import * as z from 'zod/mini';
import { leadApi } from '../../api/crm';
import { classifyFailure, endsSession, errorInfo, type ErrorInfo } from '../../api/errors';
import type { NotifyParams } from '../../lib/flow';
import { EMPTY_LEAD, leadRequestSchema, noteRequestSchema, type Board, type Contact, type Lead, type LeadFilters, type LeadValues, type TimelineEntry } from '../../schemas/crm.schema';
import { factoryStamp } from '../factory-registry';
import { createFormMachine } from '../form.machine';
import { createLoadMachine } from '../load.machine';
import { nextFromUrl } from '../paged-list.machine';
import { createResource, onPageNote, pageActions, reportToPage, type Child, type DeleteEvent, type PageNote } from '../resource.machine';

export const leads = createResource({
  id: 'lead',
  api: {
    list: async ({ filters, next, signal }: { filters: LeadFilters; next: { cursor?: string } | null; signal?: AbortSignal }) => {
      const page = await leadApi.list(filters ?? {}, next?.cursor, signal);
      return { items: page.items, next: nextFromUrl(page.next_page_url) };
    },
    get: leadApi.get,
    create: leadApi.create,
    update: leadApi.update,
    remove: leadApi.remove,
    restore: leadApi.restore,
  },
  schema: leadRequestSchema,
  initialValues: EMPTY_LEAD,
  valuesOf: (l: Lead): LeadValues => ({
    name: l.name,
    company: l.company,
    email: l.email,
    phone: l.phone,
    source: l.source,
    status: l.status,
    interest: l.interest,
    estimated_value: l.estimated_value === '0.00' ? '' : l.estimated_value,
    next_follow_up: l.next_follow_up ?? '',
    lost_reason: l.lost_reason,
  }),
});

// ── The lead's page: detail + timeline, a note, the delete ──────────────────────────────────────────

export interface LeadWithTimeline {
  lead: Lead;
  timeline: TimelineEntry[];
}

export const leadDetailLoad = createLoadMachine<LeadWithTimeline, number>('leadWithTimeline', (id) =>
  Promise.all([leadApi.get(id), leadApi.timeline(id)]).then(([lead, t]) => ({ lead, timeline: t.items })),
);

export const leadNoteForm = createFormMachine<{ body: string }, never, TimelineEntry, { values: { body: string }; result: TimelineEntry }, 'form', number>({
  id: 'leadNote',
  initialValues: { body: '' },
  schema: noteRequestSchema,
  submit: ({ values, params }) => leadApi.addNote(params as number, values.body),
  successKey: 'crm:leads.noteAdded',
  clearOnSuccess: true,
});

export const leadConvertForm = createFormMachine<Record<string, never>, never, Contact, { values: Record<string, never>; result: Contact }, 'form', number>({
  id: 'leadConvert',
  initialValues: {},
  schema: z.object({}),
  submit: ({ params }) => leadApi.convert(params as number),
  successKey: 'crm:leads.converted',
});

type RecordPageEvent = PageNote | DeleteEvent<number> | { type: 'record.saved' } | { type: 'record.removed' } | { type: 'detail.retry' };
const DELETE_EVENTS = ['delete.request', 'delete.confirm', 'delete.cancel', 'delete.retry', 'delete.undo', 'delete.dismiss'] as const;
const toPage = (child: Child, type: 'record.saved' | 'record.removed') => child.self._parent?.send({ type });

/**
 * The page of one record (a lead, a contact, an invoice): `detail` (the record, with its timeline where it
 * has one) and, as the record offers them, `note` (the note form), `remove` (the delete with undo) and named
 * one-click steps (a lead's `convert` into a contact; an invoice's `sent` and `paid`), as children. A saved
 * note or a done step loads the detail again; a delete leaves the page (`left`).
 */
export function createRecordPageMachine(
  id: string,
  parts: { detail: AnyStateMachine; note?: AnyStateMachine; remove?: AnyStateMachine; steps?: Record<string, AnyStateMachine> },
) {
  const saved = (c: Child) => toPage(c, 'record.saved');
  const steps = Object.entries(parts.steps ?? {});
  const withParams = ({ context }: { context: { id: number } }) => ({ params: context.id });
  return setup({
    types: {
      input: {} as { params: number },
      context: {} as { id: number },
      events: {} as RecordPageEvent,
    },
    actors: {
      detail: parts.detail,
      ...(parts.note ? { note: parts.note.provide({ actions: { ...reportToPage, apply: saved } }) } : {}),
      ...(parts.remove ? { remove: parts.remove.provide({ actions: { ...reportToPage, removed: (c: Child) => toPage(c, 'record.removed') } }) } : {}),
      ...Object.fromEntries(steps.map(([name, step]) => [name, step.provide({ actions: { ...reportToPage, apply: saved } })])),
    } as Record<string, AnyStateMachine>,
    actions: {
      ...pageActions,
      /** Bound by the page: the record is deleted, back to the list. */
      left: () => {},
    },
  }).createMachine({
    id,
    meta: factoryStamp('createRecordPageMachine'),
    context: ({ input }) => ({ id: input.params }),
    invoke: [
      { id: 'detail', src: 'detail', input: withParams },
      ...(parts.note ? [{ id: 'note', src: 'note', input: withParams }] : []),
      ...(parts.remove ? [{ id: 'remove', src: 'remove' }] : []),
      ...steps.map(([name]) => ({ id: name, src: name, input: withParams })),
    ],
    on: {
      'record.saved': { actions: sendTo('detail', { type: 'load.refresh' }) },
      'record.removed': { actions: 'left' },
      'detail.retry': { actions: sendTo('detail', { type: 'load.retry' }) },
      ...onPageNote,
      ...(parts.remove ? Object.fromEntries(DELETE_EVENTS.map((type) => [type, { actions: sendTo('remove', ({ event }: { event: RecordPageEvent }) => event) }])) : {}),
    },
  });
}

export const leadPageMachine = createRecordPageMachine('leadPage', { detail: leadDetailLoad, note: leadNoteForm, remove: leads.remove, steps: { convert: leadConvertForm } });

// ── The board ───────────────────────────────────────────────────────────────────────────────────────

/** Decimal text with 2 digits as cents (no floats). */
const cents = (v: string) => {
  const [i, f = ''] = v.split('.');
  return BigInt(i) * 100n + BigInt((f + '00').slice(0, 2));
};
const fromCents = (c: bigint) => `${c / 100n}.${String(c % 100n).padStart(2, '0')}`;

export interface Move {
  id: number;
  to: string;
  /** Place in the target column (0 = top). */
  index: number;
}

/** The board with card `id` moved to status `to` at `index`; the columns' counts and values follow. */
export function movedBoard(board: Board, move: Move): Board {
  const from = board.columns.find((c) => c.cards.some((x) => x.id === move.id));
  const card = from?.cards.find((x) => x.id === move.id);
  if (!from || !card) return board;
  const moved = { ...card, status: move.to };
  const value = cents(card.estimated_value);
  return {
    columns: board.columns.map((c) => {
      let cards = c.cards;
      let { total } = c;
      let sum = cents(c.value);
      if (c.status === from.status) {
        cards = cards.filter((x) => x.id !== move.id);
        total -= 1;
        sum -= value;
      }
      if (c.status === move.to) {
        cards = [...cards];
        cards.splice(Math.max(0, Math.min(move.index, cards.length)), 0, moved);
        total += 1;
        sum += value;
      }
      return cards === c.cards ? c : { ...c, cards, total, value: fromCents(sum) };
    }),
  };
}

export interface BoardContext {
  board: Board | null;
  /** The board before the move being saved (put back if the save fails). */
  before: Board | null;
  moving: Move | null;
  error: ErrorInfo | null;
}

export type BoardEvent = { type: 'board.move'; move: Move } | { type: 'board.retry' } | { type: 'board.reload' };

const errorOf = (event: unknown) => errorInfo((event as { error: unknown }).error);

export const leadBoardMachine = setup({
  types: { context: {} as BoardContext, events: {} as BoardEvent, tags: {} as 'busy' },
  actors: {
    loadBoard: fromPromise<Board>(({ signal }) => leadApi.board(signal)),
    saveMove: fromPromise<Lead, Move>(({ input }) => leadApi.move(input.id, { status: input.to })),
  },
  actions: {
    notify: (_, _params: NotifyParams) => {},
    forceLogout: () => {},
    setBoard: assign({ board: ({ event }) => (event as unknown as { output: Board }).output, error: null }),
    setError: assign({ error: ({ event }) => errorOf(event) }),
    applyMove: assign(({ context, event }) => {
      const move = (event as { move: Move }).move;
      return { before: context.board, moving: move, board: movedBoard(context.board!, move) };
    }),
    settle: assign({ before: null, moving: null }),
    putBack: assign(({ context }) => ({ board: context.before, before: null, moving: null, error: null })),
  },
  guards: {
    /** A card on the board moved to another column. */
    changesStatus: ({ context, event }) => {
      const move = (event as { move: Move }).move;
      const card = context.board?.columns.flatMap((c) => c.cards).find((x) => x.id === move.id);
      return !!card && card.status !== move.to && !!context.board?.columns.some((c) => c.status === move.to);
    },
    sessionEnded: ({ event }) => endsSession(classifyFailure((event as unknown as { error: unknown }).error)),
    connectionLost: ({ event }) => classifyFailure((event as unknown as { error: unknown }).error) === 'connection',
  },
}).createMachine({
  id: 'leadBoard',
  context: { board: null, before: null, moving: null, error: null },
  initial: 'loading',
  states: {
    loading: {
      tags: ['busy'],
      invoke: {
        id: 'loadBoard',
        src: 'loadBoard',
        onDone: { target: 'ready', actions: 'setBoard' },
        onError: [
          { guard: 'sessionEnded', target: 'forceLogout', actions: 'setError' },
          { guard: 'connectionLost', target: 'connectionError', actions: 'setError' },
          { target: 'serverError', actions: 'setError' },
        ],
      },
    },
    connectionError: { on: { 'board.retry': 'loading' } },
    serverError: { on: { 'board.retry': 'loading' } },
    ready: {
      on: {
        'board.move': { guard: 'changesStatus', target: 'moving', actions: 'applyMove' },
        'board.reload': 'loading',
      },
    },
    /** The move shows; it is being saved. */
    moving: {
      tags: ['busy'],
      invoke: {
        id: 'saveMove',
        src: 'saveMove',
        input: ({ context }) => context.moving!,
        onDone: { target: 'ready', actions: ['settle', { type: 'notify', params: { kind: 'success', key: 'crm:board.moved' } }] },
        onError: [
          { guard: 'sessionEnded', target: 'forceLogout', actions: 'setError' },
          { target: 'ready', actions: ['putBack', { type: 'notify', params: { kind: 'error', key: 'crm:board.moveFailed' } }] },
        ],
      },
    },
    forceLogout: { entry: 'forceLogout' },
  },
});
