/** Network calls of spec §7: genealogy, tabular tree, max levels and the downline report. */
import { get } from './client';
import { queryRecord } from '../lib/search-codec';
import {
  downlineReportQuerySchema,
  downlineReportSchema,
  freePlacesQuerySchema,
  freePlacesSchema,
  genealogyQuerySchema,
  maxLevelsSchema,
  tableViewQuerySchema,
  tableViewSingleQuerySchema,
  tableViewSingleSchema,
  type DownlineCategory,
  type DownlineReportQuery,
  type FreePlacesQuery,
  type GenealogyQuery,
  type TableViewQuery,
  type TableViewSingleQuery,
} from '../schemas/network.schema';
import { genealogyAnswerSchema, tableViewAnswerSchema } from './network-answers';

/** `/api/network/<call>` or `/api/network/<call>/<id>`. */
const at = (call: string, id?: number | null) => `/api/network/${call}${id === undefined || id === null ? '' : `/${id}`}`;

/**
 * The paging parameters a page-numbered answer's next_page_url asks for (page, and `after`: where the
 * last page ended), or null at the end.
 */
export function nextPageOf(nextPageUrl: string | null): { page: number; after?: string } | null {
  if (!nextPageUrl) return null;
  const params = new URL(nextPageUrl, 'http://localhost').searchParams;
  const page = Number(params.get('page'));
  if (!Number.isInteger(page) || page < 1) return null;
  const after = params.get('after');
  return after ? { page, after } : { page };
}

export const networkApi = {
  /** The tree below the member (or below the downline node `id`, or the member named `username`). */
  genealogy: (q: GenealogyQuery & { id?: number | null } = {}) =>
    get(
      genealogyAnswerSchema,
      at('genealogy', q.id),
      queryRecord(genealogyQuerySchema, {
        username: q.username,
        is_nested: q.is_nested === false ? undefined : '1',
        children_from: q.children_from === undefined ? undefined : String(q.children_from),
      }),
    ),
  /** The member and the first levels below, nested; its members given as a MemberTable. */
  tableView: (q: TableViewQuery & { id?: number | null } = {}) =>
    get(tableViewAnswerSchema, at('table_view', q.id), queryRecord(tableViewQuerySchema, q)),
  /** One level below the root as a list; `page` continues a long level (see next_page_url). */
  tableViewSingle: (q: TableViewSingleQuery & { id?: number | null } = {}) =>
    get(tableViewSingleSchema, at('table_view_single', q.id), queryRecord(tableViewSingleQuerySchema, q)),
  /** The free places of the member's own tree a recruit may be signed up into (binary and matrix plans). */
  freePlaces: (q: FreePlacesQuery = {}) => get(freePlacesSchema, at('free_places'), queryRecord(freePlacesQuerySchema, q)),
  maxLevels: (id?: number | null) => get(maxLevelsSchema, at('max_levels', id)),
  downlineReport: (category: DownlineCategory = 'placement', q: DownlineReportQuery = {}) =>
    get(downlineReportSchema, `/api/network/downline_report/${category}`, queryRecord(downlineReportQuerySchema, q)),
};
