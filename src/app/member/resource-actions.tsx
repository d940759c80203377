/**
 * The named actions of a CRUD area's page (src/machines/resource.machine.ts): the member forms' toasts and
 * forced logout, and the success toast of a delete that can be undone, with an Undo button that sends
 * `delete.undo` to the page's actor (while the toast stays, which is as long as the undo is offered).
 */
import { Button, Group, Text } from '@mantine/core';
import i18next from 'i18next';
import type { NotifyParams } from '../../lib/flow';
import { hideToast, showToast } from '../../lib/toast';
import type { SessionActor } from '../session-actor';
import { formActions } from './member-forms';

const UNDO_KEY = 'common:resource.deletedUndo';

export function resourceActions(session: SessionActor) {
  const actions = formActions(session);
  return {
    ...actions,
    notify: ({ self }: { self: { send: (event: { type: 'delete.undo' }) => void } }, params: NotifyParams) => {
      if (params.key !== UNDO_KEY) return actions.notify(undefined, params);
      showUndoToast(i18next.t(UNDO_KEY), i18next.t('common:resource.undo'), () => self.send({ type: 'delete.undo' }));
    },
  };
}

/** A success toast with an Undo button (which closes the toast and calls `onUndo`), shown as long as undo is offered. */
export function showUndoToast(text: string, undoLabel: string, onUndo: () => void): string {
  const id = showToast({
    kind: 'success',
    message: (
      <Group justify="space-between" gap="xs" wrap="nowrap">
        <Text size="sm">{text}</Text>
        <Button
          size="compact-sm"
          variant="light"
          data-undo
          onClick={() => {
            hideToast(id);
            onUndo();
          }}
        >
          {undoLabel}
        </Button>
      </Group>
    ),
  });
  return id;
}
