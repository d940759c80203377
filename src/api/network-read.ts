/**
 * Reading the two big network answers (table view, genealogy) from their bytes: the members scanned into
 * columns (src/api/network-scan.ts), the rest of the answer parsed as usual. An answer off the fast path
 * (malformed, hostile or just unusual) is read exactly as the client reads any JSON answer, so the schema
 * check that follows refuses it with the same error.
 *
 * The reading runs on the page's thread as soon as the bytes are there: a few tens of milliseconds at most
 * for 50 000 members, less than the wait for a worker thread (and back) while the page is busy loading.
 */
import { MemberTable } from './network-members';
import { readJson } from './json';
import { scanAnswer, warmUpSteps, type MemberKind } from './network-scan';

const utf8 = new TextDecoder();

/** Where each answer carries its member list. */
const MEMBER_KEY: Record<MemberKind, string> = { table: 'genealogy', tree: 'affiliates' };

const warmed = new Set<MemberKind>();

/**
 * Has the reader of `kind` answers compiled while one is on its way (see warmUpSteps): a step whenever
 * the page is idle, so nothing waits on it.
 */
export function prepareReader(kind: MemberKind): void {
  if (warmed.has(kind) || typeof requestIdleCallback !== 'function') return;
  warmed.add(kind);
  const steps = warmUpSteps(kind);
  const run = (deadline: IdleDeadline) => {
    while (steps.length && deadline.timeRemaining() > 4) steps.shift()!();
    if (steps.length) requestIdleCallback(run);
  };
  requestIdleCallback(run);
}

/**
 * Reads a table view (kind 'table') or genealogy (kind 'tree') answer: on the fast path its member list
 * becomes a MemberTable (members already checked); otherwise the whole answer is read as usual.
 */
export async function readMembersAnswer(kind: MemberKind, body: ArrayBuffer): Promise<unknown> {
  const answer = scanAnswer(new Uint8Array(body), kind);
  if (!answer) return readJson(utf8.decode(body));
  const data = answer.envelope.data as Record<string, unknown>;
  data[MEMBER_KEY[kind]] = MemberTable.fromColumns(answer.members);
  return answer.envelope;
}

export const readTableView = (body: ArrayBuffer) => readMembersAnswer('table', body);
export const readGenealogy = (body: ArrayBuffer) => readMembersAnswer('tree', body);
