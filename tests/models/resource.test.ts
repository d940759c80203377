import * as z from 'zod/mini';
import { ApiError } from '../../src/api/errors';
import { createDeleteMachine, createResource, deleteMachine } from '../../src/machines/resource.machine';
import { afterEvent, describePaths, doneEvent, errorEvent, memberCallFailures, stubActors } from '../support/paths';

type Note = { id: number; text: string };
const never = () => new Promise<never>(() => {});
const notes = createResource({
  id: 'note',
  api: { list: never, get: never, create: never, update: never, remove: never, restore: never },
  schema: z.object({ text: z.string().check(z.trim(), z.minLength(1, 'validation:required')) }),
  initialValues: { text: '' },
  valuesOf: (n: Note) => ({ text: n.text }),
});
const NOTE: Note = { id: 7, text: 'Call back' };

const failures = (id: string) => [...memberCallFailures(id), errorEvent(id, new ApiError('notFound', 404, {}))];

describePaths('delete with undo', {
  machine: stubActors(deleteMachine),
  events: [
    { type: 'delete.request', id: 7 },
    doneEvent('remove'),
    ...failures('remove'),
    doneEvent('restore'),
    ...failures('restore'),
    afterEvent('undoWindow', 'delete.deleted'),
  ],
});

describePaths('delete without undo', {
  machine: stubActors(createDeleteMachine<number>('noteDelete', { remove: never })),
  events: [{ type: 'delete.request', id: 7 }, doneEvent('remove'), ...failures('remove')],
});

describePaths('resource list', {
  machine: stubActors(notes.list),
  inputs: [{ filters: {} }],
  events: [
    doneEvent('fetchPage', { items: [NOTE], next: { cursor: 'c2' } }),
    doneEvent('fetchPage', { items: [], next: null }),
    ...failures('fetchPage'),
    { type: 'list.setFilters', filters: { text: 'call' } },
  ],
  serializeState: (s) => JSON.stringify([s.value, s.context.items.length > 0, s.context.next !== null]),
});

describePaths('resource detail', {
  machine: stubActors(notes.detail),
  inputs: [{ params: 7 }, { params: 7, autoStart: false }],
  events: [doneEvent('load', NOTE), ...failures('load'), { type: 'load.start', params: 7 }, { type: 'load.refresh', params: 7 }],
  serializeState: (s) => JSON.stringify([s.value, s.context.error?.kind ?? null]),
});

describePaths('resource create', {
  machine: stubActors(notes.create),
  events: [
    { type: 'form.change', field: 'text', value: 'Call back' },
    doneEvent('request', NOTE),
    ...failures('request'),
    errorEvent('request', new ApiError('badRequest', 422, { error_code: 'validation_error', errors: { text: ['validation:tooLong'] } })),
  ],
  serializeState: (s) => JSON.stringify([s.value, s.context.values.text, s.context.saved, s.context.failure]),
});

describePaths('resource edit', {
  machine: stubActors(notes.edit),
  inputs: [{ params: 7 }],
  events: [
    doneEvent('load', NOTE),
    ...failures('load'),
    { type: 'form.change', field: 'text', value: '' },
    doneEvent('request', NOTE),
    ...failures('request'),
  ],
  serializeState: (s) => JSON.stringify([s.value, s.context.values.text, s.context.saved, s.context.failure]),
});

const NOTE_SAVED = { type: 'page.notify', params: { kind: 'success', key: 'common:resource.deleted' } } as const;

describePaths('resource book (list + delete as one page)', {
  machine: stubActors(notes.book),
  inputs: [{}, { filters: { text: 'call' } }],
  events: [
    { type: 'record.changed' },
    ...(['delete.request', 'delete.confirm', 'delete.cancel', 'delete.retry', 'delete.undo', 'delete.dismiss'] as const).map((type) => ({ type, id: 7 })),
    NOTE_SAVED,
    { type: 'page.forceLogout' },
  ],
});

describePaths('resource form page (create or edit + choices)', {
  machine: stubActors(notes.formPage),
  inputs: [{}, { params: 7 }],
  events: [{ type: 'choices.retry' }, { type: 'record.saved' }, NOTE_SAVED, { type: 'page.forceLogout' }],
});
