/**
 * /member/crm/sales: the member's sales (search, dates and sort in the URL, CSV export); /crm/sales/new: the
 * new sale — a contact, a list of lines (an item of the catalogue and a quantity each; add and remove lines)
 * with its running total, when the invoice is due and notes; /crm/sales/{id}: a sale with its lines.
 * /member/crm/invoices: the invoices (status filter, overdue included); /crm/invoices/{id}: an invoice with
 * mark sent, mark paid and the PDF download. On desktops the lists are dense rows with right-aligned amounts
 * under a header; on phones, cards.
 */
import { ActionIcon, Alert, Anchor, Badge, Button, Card, Group, Select, SimpleGrid, Stack, Table, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useSelector } from '@xstate/react';
import type { ChangeEvent, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { Link } from 'wouter';
import type { ActorRefFrom, AnyActorRef } from 'xstate';
import { formatDate } from '../../lib/dates';
import { formatMoney } from '../../lib/money';
import type { invoicePageMachine, invoicesListMachine, saleDetailMachine, saleForm, salesListMachine } from '../../machines/crm/sales.machine';
import type { Currency } from '../../schemas/common.schema';
import {
  DUE_DAYS,
  EMPTY_SALE_LINE,
  INVOICE_STATUSES,
  MAX_SALE_LINES,
  runningTotal,
  type Invoice,
  type InvoiceFilters,
  type InvoiceSummary,
  type Sale,
  type SaleChoices,
  type SaleFilters,
  type SaleLine,
  type SaleLineValues,
  type SaleSummary,
} from '../../schemas/crm-sales.schema';
import { EmptyState } from '../components/empty-state';
import { ErrorView } from '../components/error-view';
import { useFieldError } from '../components/field-error';
import { FormCard, RequestError } from '../components/form-card';
import { formLoadScreen } from '../components/form-request-status';
import { PageLoader } from '../components/page-loader';
import { DenseItems, DenseRow, RIGHT, useDenseColumns, type DenseColumn } from '../components/paged-list/dense-list';
import { calendarDay } from './leads.view';
import { ChoiceFilter, CrmListPage, PageHeader, type FilterChoices } from './crm-list-page.view';

export const SALES = '/crm/sales';
export const INVOICES = '/crm/invoices';


export const INVOICE_COLOURS: Record<string, string> = { draft: 'gray', sent: 'blue', paid: 'green', overdue: 'red' };

export function InvoiceStatusBadge({ status }: { status: string }) {
  const { t } = useTranslation('crm');
  return (
    <Badge color={INVOICE_COLOURS[status] ?? 'gray'} variant="light" data-invoice-status={status}>
      {t(`invoiceStatus.${status}`)}
    </Badge>
  );
}

function NewSaleButton() {
  const { t } = useTranslation('crm');
  return (
    <Button component={Link} href={`${SALES}/new`}>
      {t('sales.new')}
    </Button>
  );
}

/** The invoices' own filter: their status. */
const statusChoice = (t: TFunction, filters: InvoiceFilters): FilterChoices<InvoiceFilters> => (set) => [
  <ChoiceFilter
    key="status"
    label={t('invoices.status')}
    anyLabel={t('leads.anyStatus')}
    options={INVOICE_STATUSES.map((s) => ({ value: s, label: t(`invoiceStatus.${s}`) }))}
    value={filters.status}
    onChange={(v) => set({ status: v as InvoiceFilters['status'] })}
  />,
];

const saleColumns = (t: TFunction): DenseColumn[] => [
  { label: t('sales.date'), width: 'minmax(7rem, 1fr)' },
  { label: t('sales.contact'), width: 'minmax(10rem, 2fr)' },
  { label: t('sales.invoice'), width: '9rem' },
  { label: t('sales.lines'), width: '5rem', right: true },
  { label: t('sales.total'), width: '8rem', right: true },
  { label: t('invoices.status'), width: 'minmax(7rem, 1fr)', right: true },
];
const invoiceColumns = (t: TFunction): DenseColumn[] => [
  { label: t('sales.invoice'), width: 'minmax(7rem, 1fr)' },
  { label: t('sales.contact'), width: 'minmax(10rem, 2fr)' },
  { label: t('invoices.issued'), width: '8rem' },
  { label: t('invoices.due'), width: '8rem' },
  { label: t('sales.total'), width: '8rem', right: true },
  { label: t('invoices.status'), width: 'minmax(7rem, 1fr)', right: true },
];

interface Formats {
  currency: Currency | null;
  datePattern: string | null;
}

/**
 * A sale or invoice in the list: in the list's table (desktops) a dense row — its `cells`, then the total and
 * the status right-aligned; on phones a card — its `lines` on the left, the total and the status on the right.
 */
function SummaryItem({
  data,
  cells,
  lines,
  total,
  status,
}: {
  /** The item's data attribute (data-sale-id, data-invoice-id). */
  data: Record<string, number>;
  cells: ReactNode[];
  lines: ReactNode[];
  total: string;
  status: string;
}) {
  if (useDenseColumns())
    return (
      <DenseRow
        {...data}
        cells={[
          ...cells,
          <Text key="total" size="sm" fw={600} style={RIGHT} data-amount>
            {total}
          </Text>,
          <InvoiceStatusBadge key="status" status={status} />,
        ]}
      />
    );
  return (
    <Card withBorder padding="sm" radius="md" role="listitem" {...data}>
      <Group justify="space-between" gap="xs" wrap="nowrap" align="flex-start">
        <Stack gap={2} style={{ minWidth: 0 }}>
          {lines}
        </Stack>
        <Stack gap={4} align="flex-end">
          <Text fw={600} data-amount>
            {total}
          </Text>
          <InvoiceStatusBadge status={status} />
        </Stack>
      </Group>
    </Card>
  );
}

/** The columns (desktops) and the items of a dense list. */
function denseList<T>(columns: DenseColumn[], item: (x: T) => ReactNode) {
  return {
    columns,
    renderItems: (items: T[]) => <DenseItems>{items.map(item)}</DenseItems>,
  };
}

const nameText = (name: string) => (
  <Text key="name" fw={600} style={{ overflowWrap: 'anywhere' }}>
    {name}
  </Text>
);
const nameCell = (name: string) => (
  <Text key="name" size="sm" style={{ overflowWrap: 'anywhere' }}>
    {name}
  </Text>
);

function SaleItem({ sale, currency, datePattern }: { sale: SaleSummary } & Formats) {
  const { t } = useTranslation('crm');
  const link = (
    <Anchor key="link" component={Link} href={`${SALES}/${sale.id}`} fw={600} aria-label={t('sales.open', { number: sale.invoice_number, name: sale.contact_name })}>
      {sale.invoice_number}
    </Anchor>
  );
  const day = formatDate(sale.created_at, datePattern);
  return (
    <SummaryItem
      data={{ 'data-sale-id': sale.id }}
      cells={[
        <Text key="day" size="sm">
          {day}
        </Text>,
        nameCell(sale.contact_name),
        link,
        <Text key="lines" size="sm">
          {sale.line_count}
        </Text>,
      ]}
      lines={[
        nameText(sale.contact_name),
        <Text key="link" size="sm">
          {link}
        </Text>,
        <Text key="meta" size="xs" c="dimmed">
          {day} · {t('sales.lineCount', { count: sale.line_count })}
        </Text>,
      ]}
      total={formatMoney(sale.total, currency)}
      status={sale.invoice_status}
    />
  );
}

export interface SalesListViewProps extends Formats {
  actor: ActorRefFrom<typeof salesListMachine>;
  filters: SaleFilters;
  onFilters: (f: SaleFilters) => void;
  onDownload: () => void;
}

export function SalesListView({ actor, filters, onFilters, onDownload, currency, datePattern }: SalesListViewProps) {
  const { t } = useTranslation('crm');
  return (
    <CrmListPage<SaleFilters, SaleSummary>
      title={t('sales.title')}
      actions={
        <Button component={Link} href={INVOICES} variant="default">
          {t('invoices.title')}
        </Button>
      }
      newButton={<NewSaleButton />}
      filters={filters}
      onFilters={onFilters}
      search={{ label: t('sales.search'), placeholder: t('sales.searchPlaceholder') }}
      onDownload={onDownload}
      actor={actor}
      empty={{ title: t('sales.emptyTitle'), noMatchTitle: t('sales.noMatchTitle'), description: t('sales.emptyDescription') }}
      {...denseList<SaleSummary>(saleColumns(t), (x) => (
        <SaleItem key={x.id} sale={x} currency={currency} datePattern={datePattern} />
      ))}
    />
  );
}

function InvoiceItem({ invoice, currency, datePattern }: { invoice: InvoiceSummary } & Formats) {
  const { t } = useTranslation('crm');
  const link = (
    <Anchor key="link" component={Link} href={`${INVOICES}/${invoice.id}`} fw={600} aria-label={t('invoices.open', { number: invoice.number, name: invoice.contact_name })}>
      {invoice.number}
    </Anchor>
  );
  return (
    <SummaryItem
      data={{ 'data-invoice-id': invoice.id }}
      cells={[
        link,
        nameCell(invoice.contact_name),
        <Text key="issued" size="sm">
          {calendarDay(invoice.issued_on, datePattern)}
        </Text>,
        <Text key="due" size="sm">
          {calendarDay(invoice.due_on, datePattern)}
        </Text>,
      ]}
      lines={[
        <Text key="link" size="sm">
          {link}
        </Text>,
        nameText(invoice.contact_name),
        <Text key="meta" size="xs" c="dimmed">
          {t('invoices.dueOn', { day: calendarDay(invoice.due_on, datePattern) })}
        </Text>,
      ]}
      total={formatMoney(invoice.total, currency)}
      status={invoice.status}
    />
  );
}

export interface InvoicesListViewProps extends Formats {
  actor: ActorRefFrom<typeof invoicesListMachine>;
  filters: InvoiceFilters;
  onFilters: (f: InvoiceFilters) => void;
  onDownload: () => void;
}

export function InvoicesListView({ actor, filters, onFilters, onDownload, currency, datePattern }: InvoicesListViewProps) {
  const { t } = useTranslation('crm');
  return (
    <CrmListPage<InvoiceFilters, InvoiceSummary>
      title={t('invoices.title')}
      actions={
        <Button component={Link} href={SALES} variant="default">
          {t('sales.title')}
        </Button>
      }
      newButton={<NewSaleButton />}
      filters={filters}
      onFilters={onFilters}
      search={{ label: t('sales.search'), placeholder: t('sales.searchPlaceholder') }}
      choices={statusChoice(t, filters)}
      onDownload={onDownload}
      actor={actor}
      empty={{ title: t('invoices.emptyTitle'), noMatchTitle: t('invoices.noMatchTitle'), description: t('invoices.emptyDescription') }}
      {...denseList<InvoiceSummary>(invoiceColumns(t), (x) => (
        <InvoiceItem key={x.id} invoice={x} currency={currency} datePattern={datePattern} />
      ))}
    />
  );
}

// ── The new sale ────────────────────────────────────────────────────────────────────────────────────

export function NewSaleView({ actor, currency }: { actor: ActorRefFrom<typeof saleForm>; currency: Currency | null }) {
  const { t } = useTranslation('crm');
  const state = useSelector(actor, (s) => String(s.value).replace(/OnRefresh$/, ''));
  const busy = useSelector(actor, (s) => s.hasTag('busy'));
  const ctx = useSelector(actor, (s) => s.context);
  const error = useFieldError(ctx.fieldErrors);
  const back = (
    <Button component={Link} href={SALES} variant="subtle" px={0}>
      {t('sales.back')}
    </Button>
  );
  const loading = formLoadScreen(state, ctx.loaded, () => actor.send({ type: 'form.retry' }));
  if (loading) return loading;
  const choices = ctx.loaded as SaleChoices;
  const values = ctx.values;
  const lines = values.lines as readonly SaleLineValues[];
  const change = (field: 'contact_id' | 'due_days' | 'notes', value: string) => actor.send({ type: 'form.change', field, value });
  const setLines = (next: readonly SaleLineValues[]) => actor.send({ type: 'form.change', field: 'lines', value: next });
  const setLine = (i: number, patch: Partial<SaleLineValues>) => setLines(lines.map((l, k) => (k === i ? { ...l, ...patch } : l)));
  const catalogue = choices.catalogue.map((c) => ({ value: c.item, label: `${c.name} · ${c.sku} · ${formatMoney(c.price, currency)}` }));
  const priceOf = new Map(choices.catalogue.map((c) => [c.item, c.price]));
  const refused = state === 'validationError' && !Object.keys(ctx.fieldErrors).length;

  if (!choices.contacts.length)
    return (
      <Stack gap="md" maw={720}>
        <div>{back}</div>
        <EmptyState
          title={t('sales.noContactsTitle')}
          description={t('sales.noContactsDescription')}
          action={
            <Button component={Link} href="/crm/contacts/new">
              {t('contacts.new')}
            </Button>
          }
        />
      </Stack>
    );

  return (
    <Stack gap="md" maw={860}>
      <div>{back}</div>
      <Title order={1} size="h2">
        {t('sales.newTitle')}
      </Title>
      {(state === 'connectionError' || state === 'serverError') && (
        <RequestError
          title={t(`leads.errors.${state}`)}
          retryLabel={t('leads.retry')}
          dismissLabel={t('leads.dismiss')}
          onRetry={() => actor.send({ type: 'form.retry' })}
          onDismiss={() => actor.send({ type: 'form.dismiss' })}
        />
      )}
      {refused && (
        <Alert color="yellow" role="alert">
          {t('common.saveRefused')}
        </Alert>
      )}
      <FormCard onSubmit={() => actor.send({ type: 'form.submit' })}>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          <Select
            label={t('sales.contact')}
            required
            searchable
            data={choices.contacts.map((c) => ({ value: String(c.id), label: c.name }))}
            value={values.contact_id || null}
            onChange={(v) => change('contact_id', v ?? '')}
            error={error('contact_id')}
            disabled={busy}
          />
          <Select
            label={t('sales.dueIn')}
            data={DUE_DAYS.map((d) => ({ value: d, label: t('sales.days', { count: Number(d) }) }))}
            value={values.due_days}
            allowDeselect={false}
            onChange={(v) => change('due_days', v ?? '30')}
            error={error('due_days')}
            disabled={busy}
          />
        </SimpleGrid>
        <Stack gap="xs" role="group" aria-label={t('sales.lines')}>
          <Text fw={600}>{t('sales.lines')}</Text>
          {error('lines') && (
            <Text size="sm" c="red" role="alert">
              {error('lines')}
            </Text>
          )}
          {lines.map((line, i) => {
            const price = priceOf.get(line.item);
            const q = line.quantity.trim();
            const amount = price && /^\d{1,4}$/.test(q) && Number(q) > 0 ? runningTotal([line], choices.catalogue) : null;
            return (
              <Card key={i} withBorder padding="xs" data-sale-line={i}>
                <Group align="flex-start" gap="xs" wrap="wrap">
                  <Select
                    label={t('sales.item', { n: i + 1 })}
                    searchable
                    data={catalogue}
                    value={line.item || null}
                    onChange={(v) => setLine(i, { item: v ?? '' })}
                    error={error(`lines.${i}.item`)}
                    disabled={busy}
                    style={{ flex: '1 1 16rem', minWidth: 0 }}
                    nothingFoundMessage={t('sales.noItem')}
                  />
                  <TextInput
                    label={t('sales.quantity', { n: i + 1 })}
                    inputMode="numeric"
                    value={line.quantity}
                    onChange={(e: ChangeEvent<HTMLInputElement>) => setLine(i, { quantity: e.currentTarget.value })}
                    error={error(`lines.${i}.quantity`)}
                    disabled={busy}
                    w={96}
                  />
                  <Stack gap={2} style={{ flex: '0 0 auto', minWidth: '6rem' }} align="flex-end">
                    <Text size="xs" c="dimmed">
                      {t('sales.amount')}
                    </Text>
                    <Text size="sm" fw={500} data-line-amount={i} mt={6}>
                      {amount ? formatMoney(amount, currency) : '—'}
                    </Text>
                  </Stack>
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    mt={26}
                    aria-label={t('sales.removeLine', { n: i + 1 })}
                    disabled={busy || lines.length === 1}
                    onClick={() => setLines(lines.filter((_, k) => k !== i))}
                  >
                    ×
                  </ActionIcon>
                </Group>
              </Card>
            );
          })}
          <Group justify="space-between" wrap="wrap">
            <Button variant="light" onClick={() => setLines([...lines, EMPTY_SALE_LINE])} disabled={busy || lines.length >= MAX_SALE_LINES}>
              {t('sales.addLine')}
            </Button>
            <Text fw={700} aria-live="polite" data-running-total>
              {t('sales.total')}: {formatMoney(runningTotal(lines, choices.catalogue), currency)}
            </Text>
          </Group>
        </Stack>
        <Textarea label={t('sales.notes')} rows={2} value={values.notes} onChange={(e: ChangeEvent<HTMLTextAreaElement>) => change('notes', e.currentTarget.value)} error={error('notes')} disabled={busy} />
        <Text size="xs" c="dimmed">
          {t('sales.priceNote')}
        </Text>
        <Group justify="flex-end">
          <Anchor component={Link} href={SALES} size="sm">
            {t('leads.cancel')}
          </Anchor>
          <Button type="submit" loading={busy} disabled={busy}>
            {t('sales.save')}
          </Button>
        </Group>
      </FormCard>
    </Stack>
  );
}

// ── A sale and an invoice ───────────────────────────────────────────────────────────────────────────

function LinesTable({ lines, total, currency }: { lines: SaleLine[]; total: string; currency: Currency | null }) {
  const { t } = useTranslation('crm');
  return (
    <div style={{ overflowX: 'auto' }}>
      <Table striped withTableBorder aria-label={t('sales.lines')} miw={520}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('sales.itemColumn')}</Table.Th>
            <Table.Th>SKU</Table.Th>
            <Table.Th style={RIGHT}>{t('sales.quantityColumn')}</Table.Th>
            <Table.Th style={RIGHT}>{t('sales.unitPrice')}</Table.Th>
            <Table.Th style={RIGHT}>{t('sales.amount')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {lines.map((l, i) => (
            <Table.Tr key={i} data-line={l.sku}>
              <Table.Td>{l.name}</Table.Td>
              <Table.Td>{l.sku}</Table.Td>
              <Table.Td style={RIGHT}>{l.quantity}</Table.Td>
              <Table.Td style={RIGHT}>{formatMoney(l.unit_price, currency)}</Table.Td>
              <Table.Td style={RIGHT}>{formatMoney(l.amount, currency)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
        <Table.Tfoot>
          <Table.Tr>
            <Table.Th colSpan={4} style={RIGHT}>
              {t('sales.total')}
            </Table.Th>
            <Table.Th style={RIGHT} data-total>
              {formatMoney(total, currency)}
            </Table.Th>
          </Table.Tr>
        </Table.Tfoot>
      </Table>
    </div>
  );
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" component="div" style={{ overflowWrap: 'anywhere' }}>
        {children || '—'}
      </Text>
    </Stack>
  );
}

/** The screens of a load before it has data: not found, connection or server error with retry, loading. */
function loadScreen(state: string, error: { kind?: string } | null, hasData: boolean, back: ReactNode, retry: () => void, t: (k: string) => string) {
  if (state === 'error' && error?.kind === 'notFound')
    return (
      <div data-record-status="notFound">
        <EmptyState title={t('common.notFoundTitle')} description={t('common.notFoundDescription')} action={back} />
      </div>
    );
  if ((state === 'connectionError' || state === 'error') && !hasData) return <ErrorView kind={state === 'connectionError' ? 'connection' : 'server'} onRetry={retry} />;
  if (!hasData) return <PageLoader />;
  return null;
}

export function SalePageView({ actor, currency, datePattern }: { actor: ActorRefFrom<typeof saleDetailMachine> } & Formats) {
  const { t } = useTranslation('crm');
  const state = useSelector(actor, (s) => String(s.value));
  const sale = useSelector(actor, (s) => s.context.data) as Sale | null;
  const error = useSelector(actor, (s) => s.context.error);
  const back = (
    <Button component={Link} href={SALES} variant="subtle" px={0}>
      {t('sales.back')}
    </Button>
  );
  const screen = loadScreen(state, error, !!sale, back, () => actor.send({ type: 'load.retry' }), t);
  if (screen || !sale) return screen;
  return (
    <Stack gap="md" maw={900}>
      <div>{back}</div>
      <PageHeader title={t('sales.saleTitle', { name: sale.contact_name })}>
        <Button component={Link} href={`${INVOICES}/${sale.invoice_id}`}>
          {t('sales.openInvoice', { number: sale.invoice_number })}
        </Button>
      </PageHeader>
      <Card withBorder>
        <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="sm">
          <Field label={t('sales.contact')}>
            <Anchor component={Link} href={`/crm/contacts/${sale.contact_id}`}>
              {sale.contact_name}
            </Anchor>
          </Field>
          <Field label={t('sales.date')}>{formatDate(sale.created_at, datePattern)}</Field>
          <Field label={t('sales.invoice')}>{sale.invoice_number}</Field>
          <Field label={t('invoices.status')}>
            <InvoiceStatusBadge status={sale.invoice_status} />
          </Field>
        </SimpleGrid>
        {sale.notes && (
          <Text size="sm" mt="sm" style={{ whiteSpace: 'pre-wrap' }}>
            {sale.notes}
          </Text>
        )}
      </Card>
      <LinesTable lines={sale.lines} total={sale.total} currency={currency} />
    </Stack>
  );
}

export interface InvoicePageViewProps extends Formats {
  actor: ActorRefFrom<typeof invoicePageMachine>;
  onPdf: (invoice: Invoice) => void;
}

export function InvoicePageView({ actor, currency, datePattern, onPdf }: InvoicePageViewProps) {
  const { t } = useTranslation('crm');
  const detail = useSelector(actor, (s) => s.children.detail as AnyActorRef | undefined);
  const sent = useSelector(actor, (s) => s.children.sent as AnyActorRef | undefined);
  const paid = useSelector(actor, (s) => s.children.paid as AnyActorRef | undefined);
  const state = useSelector(detail, (s) => (s ? String(s.value) : 'loading'));
  const invoice = useSelector(detail, (s) => (s?.context.data ?? null) as Invoice | null);
  const error = useSelector(detail, (s) => s?.context.error ?? null);
  const sending = useSelector(sent, (s) => !!s?.hasTag('busy'));
  const paying = useSelector(paid, (s) => !!s?.hasTag('busy'));
  const sentState = useSelector(sent, (s) => (s ? String(s.value) : ''));
  const paidState = useSelector(paid, (s) => (s ? String(s.value) : ''));
  const back = (
    <Button component={Link} href={INVOICES} variant="subtle" px={0}>
      {t('invoices.back')}
    </Button>
  );
  const screen = loadScreen(state, error, !!invoice, back, () => actor.send({ type: 'detail.retry' }), t);
  if (screen || !invoice) return screen;
  const failedAction = [
    [sent, sentState],
    [paid, paidState],
  ].find(([, s]) => s === 'connectionError' || s === 'serverError' || s === 'validationError') as [AnyActorRef, string] | undefined;
  const b = invoice.buyer;
  return (
    <Stack gap="md" maw={900}>
      <div>{back}</div>
      <PageHeader title={invoice.number}>
        <InvoiceStatusBadge status={invoice.status} />
      </PageHeader>
      {failedAction && (
        <RequestError
          title={t(failedAction[1] === 'validationError' ? 'invoices.actionRefused' : `leads.errors.${failedAction[1]}`)}
          retryLabel={t('leads.retry')}
          dismissLabel={t('leads.dismiss')}
          onRetry={failedAction[1] === 'validationError' ? undefined : () => failedAction[0].send({ type: 'form.retry' })}
          onDismiss={() => failedAction[0].send({ type: 'form.dismiss' })}
        />
      )}
      <Group gap="xs" wrap="wrap">
        {invoice.status === 'draft' && (
          <Button onClick={() => sent?.send({ type: 'form.submit' })} loading={sending} disabled={sending || paying}>
            {t('invoices.markSent')}
          </Button>
        )}
        {invoice.status !== 'paid' && (
          <Button variant={invoice.status === 'draft' ? 'light' : 'filled'} color="green" onClick={() => paid?.send({ type: 'form.submit' })} loading={paying} disabled={sending || paying}>
            {t('invoices.markPaid')}
          </Button>
        )}
        <Button variant="default" onClick={() => onPdf(invoice)}>
          {t('invoices.downloadPdf')}
        </Button>
      </Group>
      <Card withBorder>
        <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="sm">
          <Field label={t('invoices.issued')}>{calendarDay(invoice.issued_on, datePattern)}</Field>
          <Field label={t('invoices.due')}>{calendarDay(invoice.due_on, datePattern)}</Field>
          <Field label={t('invoices.sentAt')}>{invoice.sent_at ? formatDate(invoice.sent_at, datePattern) : ''}</Field>
          <Field label={t('invoices.paidAt')}>{invoice.paid_at ? formatDate(invoice.paid_at, datePattern) : ''}</Field>
        </SimpleGrid>
      </Card>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
        <Card withBorder>
          <Text fw={600} mb={4}>
            {t('invoices.seller')}
          </Text>
          <Text size="sm">{invoice.seller.name}</Text>
          <Text size="sm" c="dimmed">
            {invoice.seller.email}
          </Text>
        </Card>
        <Card withBorder>
          <Text fw={600} mb={4}>
            {t('invoices.buyer')}
          </Text>
          <Anchor component={Link} href={`/crm/contacts/${invoice.contact_id}`} size="sm">
            {b.name}
          </Anchor>
          <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            {[b.company, b.email, b.phone, b.city].filter(Boolean).join(' · ')}
          </Text>
        </Card>
      </SimpleGrid>
      <LinesTable lines={invoice.lines} total={invoice.total} currency={currency} />
      <div>
        <Anchor component={Link} href={`${SALES}/${invoice.sale_id}`} size="sm">
          {t('invoices.openSale')}
        </Anchor>
      </div>
    </Stack>
  );
}
