/**
 * Path tests of the leads' own page actors: the board (load, move shown at once and saved, put back when
 * the save fails, a 401 signs out) and the lead's page (detail, note and delete as children).
 */
import { leadBoardMachine, leadPageMachine, movedBoard } from '../../src/machines/crm/leads.machine';
import type { Board } from '../../src/schemas/crm.schema';
import { describePaths, doneEvent, memberCallFailures, stubActors } from '../support/paths';

const card = (id: number, status: string, value = '10.00') => ({ id, name: `Lead ${id}`, company: '', status, estimated_value: value, next_follow_up: null });
const BOARD: Board = {
  columns: [
    { status: 'new', total: 2, value: '20.50', cards: [card(1, 'new', '10.25'), card(2, 'new', '10.25')] },
    { status: 'contacted', total: 0, value: '0.00', cards: [] },
  ],
};

describePaths('lead board', {
  machine: stubActors(leadBoardMachine),
  events: [
    doneEvent('loadBoard', BOARD),
    ...memberCallFailures('loadBoard'),
    { type: 'board.retry' },
    { type: 'board.reload' },
    { type: 'board.move', move: { id: 1, to: 'contacted', index: 0 } },
    // Not a move: same column, or a card or column that is not on the board.
    { type: 'board.move', move: { id: 1, to: 'new', index: 1 } },
    { type: 'board.move', move: { id: 99, to: 'contacted', index: 0 } },
    doneEvent('saveMove', { id: 1 }),
    ...memberCallFailures('saveMove'),
  ],
  serializeState: (s) => JSON.stringify([s.value, s.context.board?.columns.map((c: { total: number }) => c.total) ?? null, s.context.moving !== null]),
});

describePaths('lead page (detail, note and delete)', {
  machine: stubActors(leadPageMachine),
  inputs: [{ params: 7 }],
  events: [
    { type: 'record.saved' },
    { type: 'record.removed' },
    { type: 'detail.retry' },
    ...(['delete.request', 'delete.confirm', 'delete.cancel', 'delete.retry', 'delete.undo', 'delete.dismiss'] as const).map((type) => ({ type, id: 7 })),
    { type: 'page.notify', params: { kind: 'success', key: 'crm:leads.noteAdded' } },
    { type: 'page.forceLogout' },
  ],
});

describe('a move on the board', () => {
  it('moves the card to its place in the other column; counts and values follow in exact decimals', () => {
    const b = movedBoard(BOARD, { id: 2, to: 'contacted', index: 5 });
    expect(b.columns.map((c) => [c.status, c.total, c.value, c.cards.map((x) => x.id)])).toEqual([
      ['new', 1, '10.25', [1]],
      ['contacted', 1, '10.25', [2]],
    ]);
    expect(b.columns[1].cards[0].status).toBe('contacted');
    expect(movedBoard(BOARD, { id: 42, to: 'contacted', index: 0 })).toBe(BOARD);
  });
});
