/**
 * /member/crm/leads/board: the leads by status, one column per status (new → lost) with its count and
 * summed value. A card is moved with the mouse or the keyboard (@hello-pangea/dnd: space or enter picks
 * it up, the arrow keys move it, space or enter drops it, escape cancels; the moves are announced).
 * Columns scroll sideways on a phone.
 */
import { DragDropContext, Draggable, Droppable, type DropResult } from '@hello-pangea/dnd';
import { Anchor, Box, Card, Group, Stack, Text, Title } from '@mantine/core';
import { useSelector } from '@xstate/react';
import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import type { ActorRefFrom } from 'xstate';
import { formatMoney } from '../../lib/money';
import type { leadBoardMachine } from '../../machines/crm/leads.machine';
import type { BoardCard } from '../../schemas/crm.schema';
import type { Currency } from '../../schemas/common.schema';
import { ErrorView } from '../components/error-view';
import { PageLoader } from '../components/page-loader';
import { calendarDay, LeadViews, LEADS, STATUS_COLOURS } from './leads.view';

type BoardActor = ActorRefFrom<typeof leadBoardMachine>;

const LeadCard = memo(function LeadCard({ card, index, currency, datePattern }: { card: BoardCard; index: number; currency: Currency | null; datePattern: string | null }) {
  const { t } = useTranslation('crm');
  return (
    <Draggable draggableId={String(card.id)} index={index}>
      {(provided, snapshot) => (
        <Card
          ref={provided.innerRef}
          {...provided.draggableProps}
          withBorder
          padding="xs"
          radius="sm"
          shadow={snapshot.isDragging ? 'md' : undefined}
          data-card-id={card.id}
          style={{ ...provided.draggableProps.style, marginBottom: 8 }}
        >
          <Anchor component={Link} href={`${LEADS}/${card.id}`} size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
            {card.name}
          </Anchor>
          {/* The handle: a sibling of the link (no control inside another), named for screen readers. */}
          <div {...provided.dragHandleProps} aria-label={t('board.handle', { name: card.name, status: t(`status.${card.status}`) })} data-handle style={{ cursor: 'grab' }}>
            {card.company && (
              <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                {card.company}
              </Text>
            )}
            <Group justify="space-between" gap={4} mt={4}>
              <Text size="xs" fw={500}>
                {formatMoney(card.estimated_value, currency)}
              </Text>
              <Text size="xs" c="dimmed">
                {card.next_follow_up ? calendarDay(card.next_follow_up, datePattern) : '⠿'}
              </Text>
            </Group>
          </div>
        </Card>
      )}
    </Draggable>
  );
});

export function LeadBoardView({ actor, currency, datePattern }: { actor: BoardActor; currency: Currency | null; datePattern: string | null }) {
  const { t } = useTranslation('crm');
  const state = useSelector(actor, (s) => s.value as string);
  const board = useSelector(actor, (s) => s.context.board);
  const saving = useSelector(actor, (s) => s.matches('moving'));

  const header = (
    <Group justify="space-between" wrap="wrap" gap="xs">
      <Title order={1} size="h2">
        {t('board.title')}
      </Title>
      <LeadViews current="board" />
    </Group>
  );
  if (state === 'connectionError' || state === 'serverError')
    return (
      <Stack gap="md">
        {header}
        <ErrorView kind={state === 'connectionError' ? 'connection' : 'server'} onRetry={() => actor.send({ type: 'board.retry' })} />
      </Stack>
    );
  if (!board) return <PageLoader />;

  const onDragEnd = (r: DropResult) => {
    if (!r.destination || r.destination.droppableId === r.source.droppableId) return;
    actor.send({ type: 'board.move', move: { id: Number(r.draggableId), to: r.destination.droppableId, index: r.destination.index } });
  };

  return (
    <Stack gap="md">
      {header}
      <Text size="sm" c="dimmed" id="board-instructions">
        {t('board.instructions')}
      </Text>
      <Text size="xs" c="dimmed" aria-live="polite" data-board-saving={saving || undefined}>
        {saving ? t('board.saving') : ''}
      </Text>
      <DragDropContext onDragEnd={onDragEnd} dragHandleUsageInstructions={t('board.instructions')}>
        <Box style={{ display: 'flex', gap: 12, overflowX: 'auto', alignItems: 'flex-start', paddingBottom: 8 }} data-board>
          {board.columns.map((col) => (
            <Card
              key={col.status}
              withBorder
              radius="md"
              padding="xs"
              component="section"
              aria-label={t('board.column', { status: t(`status.${col.status}`), count: col.total, value: formatMoney(col.value, currency) })}
              style={{ flex: '0 0 260px', maxWidth: '80vw', borderTop: `3px solid var(--mantine-color-${STATUS_COLOURS[col.status]}-filled)` }}
              data-column={col.status}
            >
              <Group justify="space-between" gap={4} mb="xs">
                <Title order={2} size="h5">
                  {t(`status.${col.status}`)}
                </Title>
                <Text size="xs" c="dimmed" data-column-total>
                  {t('board.cards', { count: col.total })} · {formatMoney(col.value, currency)}
                </Text>
              </Group>
              <Droppable droppableId={col.status}>
                {(provided, snapshot) => (
                  <div
                    ref={provided.innerRef}
                    {...provided.droppableProps}
                    style={{ minHeight: 80, borderRadius: 6, background: snapshot.isDraggingOver ? 'var(--mantine-color-default-hover)' : undefined }}
                  >
                    {col.cards.map((card, i) => (
                      <LeadCard key={card.id} card={card} index={i} currency={currency} datePattern={datePattern} />
                    ))}
                    {provided.placeholder}
                    {!col.cards.length && (
                      <Text size="xs" c="dimmed" ta="center" py="md">
                        {t('board.empty')}
                      </Text>
                    )}
                  </div>
                )}
              </Droppable>
              {col.total > col.cards.length && (
                <Anchor component={Link} href={`${LEADS}?status=${col.status}`} size="xs">
                  {t('board.more', { count: col.total - col.cards.length })}
                </Anchor>
              )}
            </Card>
          ))}
        </Box>
      </DragDropContext>
    </Stack>
  );
}
