/**
 * The request thread's end of the embedded database running in a worker thread (./pglite-worker.mjs):
 * an object that answers what drizzle's PGlite driver calls — `query`, `exec`, `transaction` — by
 * messages to the worker, plus LISTEN and closing. A statement's answer crosses as the database sent it
 * (wire-protocol bytes, handed over without a copy) and is read into rows here, with PGlite's own type
 * parsers and the caller's: the same rows PGlite's `query` answers, for a fraction of the work of parsing
 * them there and copying the objects across. Database errors come back with their fields (code, constraint…).
 */
import { Worker } from 'node:worker_threads';
import { types } from '@electric-sql/pglite';

type Parser = (value: string, typeId?: number) => unknown;
interface QueryOptions {
  rowMode?: 'object' | 'array';
  parsers?: Record<number, Parser>;
}
interface Results {
  rows: unknown[];
  fields: Array<{ name: string; dataTypeID: number }>;
  affectedRows?: number;
}
type Reply = { id: number; result?: unknown; answer?: ArrayBuffer; error?: Record<string, unknown> & { message: string } };

/** Statement texts numbered for the worker, which is sent each one once (the longest, and any past the first few thousand, every time). */
const NUMBERED_TEXTS = 2_000;
const NUMBERED_TEXT_LENGTH = 100_000;

const bom = new TextDecoder();
/**
 * A field's text. PGlite reads fields with a TextDecoder, which drops a leading byte-order mark; Buffer's
 * faster decoding keeps it, so such a field (all but never) is read the TextDecoder's way.
 */
function text(bytes: Buffer, start: number, end: number): string {
  if (bytes[start] === 0xef && bytes[start + 1] === 0xbb && bytes[start + 2] === 0xbf && end - start >= 3) return bom.decode(bytes.subarray(start, end));
  return (bytes as Buffer & { utf8Slice(start: number, end: number): string }).utf8Slice(start, end);
}

const MODIFYING = new Set(['INSERT', 'UPDATE', 'DELETE', 'COPY', 'MERGE']);

/**
 * What one statement's answers look like, kept with its text: its last RowDescription as sent, and what was
 * read from it — field names (strings the engine has already made property keys), types, and a function that
 * makes a row object from its values in one step (an object literal with the statement's columns, as
 * Object.fromEntries would make it: a repeated name keeps its first place and its last value).
 */
export interface Shape {
  description: Buffer | null;
  fields: Results['fields'];
  types: number[];
  row: ((values: unknown[]) => Record<string, unknown>) | null;
}
export const newShape = (): Shape => ({ description: null, fields: [], types: [], row: null });

function rowMaker(names: string[]): (values: unknown[]) => Record<string, unknown> {
  // In a literal "__proto__" would set the prototype, where Object.fromEntries (PGlite's way) makes it a field.
  if (names.includes('__proto__')) return (values) => Object.fromEntries(values.map((v, i) => [names[i], v]));
  return new Function('v', `return { ${names.map((n, i) => `${JSON.stringify(n)}: v[${i}]`).join(', ')} };`) as (values: unknown[]) => Record<string, unknown>;
}

/**
 * A statement's answer (RowDescription, DataRows, CommandComplete… as the database sent them) read into what
 * PGlite's `query` answers: fields, rows as objects or arrays with every value through the type's parser (the
 * caller's first, else PGlite's), and the rows a write affected. No CommandComplete (an empty statement): no rows.
 * `shape`: what the statement's answers looked like so far (updated when this one differs).
 */
export function readAnswer(answer: ArrayBuffer, options: QueryOptions, parsers: Record<number, Parser>, shape: Shape = newShape()): Results {
  const bytes = Buffer.from(answer);
  const view = new DataView(answer);
  const asArrays = options.rowMode === 'array';
  const own = options.parsers;
  let fields: Results['fields'] = [];
  let readers: Array<Parser | undefined> = [];
  let types: number[] = [];
  const rows: unknown[] = [];
  const values: unknown[] = [];
  for (let at = 0; at + 5 <= bytes.length; ) {
    const kind = bytes[at];
    const end = at + 1 + view.getInt32(at + 1);
    let p = at + 5;
    if (kind === 68) {
      // DataRow: per field its length (-1: null) and text.
      const n = view.getInt16(p);
      p += 2;
      const row = asArrays ? new Array<unknown>(n) : values;
      for (let i = 0; i < n; i++) {
        const length = view.getInt32(p);
        p += 4;
        if (length === -1) row[i] = null;
        else {
          const value = text(bytes, p, p + length);
          p += length;
          const parse = readers[i];
          row[i] = parse ? parse(value, types[i]) : value;
        }
      }
      rows.push(asArrays ? row : shape.row!(values));
    } else if (kind === 84) {
      // RowDescription: per field its name, table, column, type, size, modifier and format.
      if (!shape.description || bytes.compare(shape.description, 0, shape.description.length, at, end) !== 0) {
        const n = view.getInt16(p);
        p += 2;
        const read: Results['fields'] = [];
        for (let i = 0; i < n; i++) {
          const zero = bytes.indexOf(0, p);
          read.push({ name: text(bytes, p, zero), dataTypeID: view.getInt32(zero + 7) });
          p = zero + 19;
        }
        shape.description = Buffer.from(bytes.subarray(at, end));
        shape.fields = read;
        shape.types = read.map((f) => f.dataTypeID);
        shape.row = rowMaker(read.map((f) => f.name));
      }
      fields = shape.fields;
      types = shape.types;
      readers = types.map((t) => own?.[t] ?? parsers[t]);
    } else if (kind === 67) {
      // CommandComplete ("SELECT 3", "INSERT 0 1"…): the first statement's answer is whole.
      const tag = text(bytes, p, end - 1).split(' ');
      const count = parseInt(tag[tag.length - 1], 10);
      return { rows, fields, affectedRows: MODIFYING.has(tag[0]) && !Number.isNaN(count) ? count : 0 };
    }
    at = end;
  }
  return { rows: [], fields: [], affectedRows: 0 };
}

/** What drizzle-orm/pglite needs of a client (and of the transaction it hands to its callback). */
export interface ThreadClient {
  query(text: string, params?: unknown[], options?: QueryOptions): Promise<Results>;
  exec(text: string): Promise<Results[]>;
  transaction<T>(fn: (tx: ThreadClient) => Promise<T>): Promise<T>;
  readonly closed: boolean;
}

export interface PgliteThread {
  client: ThreadClient;
  listen(channel: string, heard: (payload: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

function toError(e: Record<string, unknown> & { message: string }): Error {
  const err = new Error(e.message);
  for (const [k, v] of Object.entries(e)) if (k !== 'message' && k !== 'stack') (err as unknown as Record<string, unknown>)[k] = v;
  return err;
}

export async function openPgliteThread(dataDir: string | null): Promise<PgliteThread> {
  const worker = new Worker(new URL('./pglite-worker.mjs', import.meta.url), { workerData: { dataDir } });
  const waiting = new Map<number, { resolve(v: unknown): void; reject(e: Error): void; options?: QueryOptions; shape?: Shape }>();
  const numbered = new Map<string, { t: number; shape: Shape }>();
  /** PGlite's parsers, with those of the array types it found when it opened (each reads its elements with the element's parser). */
  const parsers: Record<number, Parser> = { ...(types.parsers as Record<number, Parser>) };
  const listeners = new Map<string, Set<(payload: string) => void>>();
  let next = 1;
  let closed = false;
  let failure: Error | null = null;

  await new Promise<void>((resolve, reject) => {
    worker.once('error', reject);
    worker.once('message', (m: { ready?: boolean; arrayTypes?: Array<[number, number]> }) => {
      if (!m.ready) return reject(new Error('the database thread did not start'));
      for (const [array, element] of m.arrayTypes ?? []) parsers[array] = (value) => types.arrayParser(value, parsers[element], array);
      resolve();
    });
  });
  worker.on('message', (m: Reply & { channel?: string; payload?: string }) => {
    if (m.channel !== undefined) {
      for (const heard of listeners.get(m.channel) ?? []) heard(m.payload ?? '');
      return;
    }
    const w = waiting.get(m.id);
    if (!w) return;
    waiting.delete(m.id);
    if (m.error) w.reject(toError(m.error));
    else if (m.answer) {
      try {
        w.resolve(readAnswer(m.answer, w.options ?? {}, parsers, w.shape));
      } catch (e) {
        w.reject(e as Error);
      }
    } else w.resolve(m.result);
  });
  // A thread that dies fails every call waiting for it, and every later one.
  const fail = (e: Error) => {
    failure = e;
    for (const w of waiting.values()) w.reject(e);
    waiting.clear();
  };
  worker.on('error', fail);
  worker.on('exit', (code) => fail(new Error(`the database thread stopped (exit code ${code})`)));

  const call = <T>(message: Record<string, unknown>, options?: QueryOptions, shape?: Shape): Promise<T> => {
    if (failure) return Promise.reject(failure);
    const id = next++;
    return new Promise<T>((resolve, reject) => {
      waiting.set(id, { resolve: resolve as (v: unknown) => void, reject, options, shape });
      message.id = id;
      worker.postMessage(message);
    });
  };

  const clientOn = (tx: number | null): ThreadClient => ({
    query(text, params = [], options = {}) {
      // A text goes across once, with the number later messages name it by.
      const known = numbered.get(text);
      if (known) return call<Results>({ op: 'query', t: known.t, params, tx }, options, known.shape);
      if (numbered.size >= NUMBERED_TEXTS || text.length > NUMBERED_TEXT_LENGTH) return call<Results>({ op: 'query', text, params, tx }, options);
      const numberedNow = { t: numbered.size + 1, shape: newShape() };
      numbered.set(text, numberedNow);
      return call<Results>({ op: 'query', t: numberedNow.t, text, params, tx }, options, numberedNow.shape);
    },
    exec(text) {
      return call<Results[]>({ op: 'exec', text, tx });
    },
    async transaction(fn) {
      if (tx !== null) throw new Error('nested transactions use savepoints');
      const id = await call<number>({ op: 'begin' });
      let result;
      try {
        result = await fn(clientOn(id));
      } catch (e) {
        await call({ op: 'end', tx: id, commit: false });
        throw e;
      }
      await call({ op: 'end', tx: id, commit: true });
      return result;
    },
    get closed() {
      return closed;
    },
  });

  return {
    client: clientOn(null),
    async listen(channel, heard) {
      let set = listeners.get(channel);
      if (!set) {
        listeners.set(channel, (set = new Set()));
        await call({ op: 'listen', channel });
      }
      set.add(heard);
      return async () => {
        set!.delete(heard);
        if (set!.size === 0 && listeners.get(channel) === set) {
          listeners.delete(channel);
          if (!closed) await call({ op: 'unlisten', channel });
        }
      };
    },
    async close() {
      if (closed) return;
      await call({ op: 'close' });
      closed = true;
      await worker.terminate();
    },
  };
}
