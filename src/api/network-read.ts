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
 * The answer's body as the client's JSON reading (ofetch's destr) gives it: the JSON value; the text
 * itself when it is not JSON; keys that could reach an object prototype dropped.
 */
export function readJson(text: string): unknown {
  if (text[0] === '"' && text[text.length - 1] === '"' && text.indexOf('\\') === -1) return text.slice(1, -1);
  const trimmed = text.trim();
  if (trimmed.length <= 9) {
    const words: Record<string, unknown> = {
      true: true,
      false: false,
      undefined: undefined,
      null: null,
      nan: Number.NaN,
      infinity: Number.POSITIVE_INFINITY,
      '-infinity': Number.NEGATIVE_INFINITY,
    };
    const lower = trimmed.toLowerCase();
    if (Object.hasOwn(words, lower)) return words[lower];
  }
  if (!JSON_SIG.test(text)) return text;
  try {
    if (SUSPECT_PROTO.test(text) || SUSPECT_CONSTRUCTOR.test(text)) return JSON.parse(text, dropPrototypeKeys);
    return JSON.parse(text);
  } catch {
    return text;
  }
}

const SUSPECT_PROTO = /"(?:_|\\u0{2}5[Ff]){2}(?:p|\\u0{2}70)(?:r|\\u0{2}72)(?:o|\\u0{2}6[Ff])(?:t|\\u0{2}74)(?:o|\\u0{2}6[Ff])(?:_|\\u0{2}5[Ff]){2}"\s*:/;
const SUSPECT_CONSTRUCTOR =
  /"(?:c|\\u0063)(?:o|\\u006[Ff])(?:n|\\u006[Ee])(?:s|\\u0073)(?:t|\\u0074)(?:r|\\u0072)(?:u|\\u0075)(?:c|\\u0063)(?:t|\\u0074)(?:o|\\u006[Ff])(?:r|\\u0072)"\s*:/;
const JSON_SIG = /^\s*["[{]|^\s*-?\d{1,16}(\.\d{1,17})?([Ee][+-]?\d+)?\s*$/;
const dropPrototypeKeys = (key: string, value: unknown) =>
  key === '__proto__' || (key === 'constructor' && value && typeof value === 'object' && 'prototype' in value) ? undefined : value;

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
