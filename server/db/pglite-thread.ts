/**
 * The request thread's end of the embedded database running in a worker thread (./pglite-worker.mjs):
 * an object that answers what drizzle's PGlite driver calls — `query`, `exec`, `transaction` — by
 * messages to the worker, plus LISTEN and closing. Rows cross as structured clones (dates, big integers
 * and bytes survive); database errors come back with their fields (code, constraint…).
 */
import { Worker } from 'node:worker_threads';

interface QueryOptions {
  rowMode?: 'object' | 'array';
  parsers?: Record<number, unknown>;
}
interface Results {
  rows: unknown[];
  fields: Array<{ name: string; dataTypeID: number }>;
  affectedRows?: number;
}
type Reply = { id: number; result?: unknown; error?: Record<string, unknown> & { message: string } };

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
  const waiting = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  const listeners = new Map<string, Set<(payload: string) => void>>();
  let next = 1;
  let closed = false;
  let failure: Error | null = null;

  await new Promise<void>((resolve, reject) => {
    worker.once('error', reject);
    worker.once('message', (m: { ready?: boolean }) => (m.ready ? resolve() : reject(new Error('the database thread did not start'))));
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
    else w.resolve(m.result);
  });
  // A thread that dies fails every call waiting for it, and every later one.
  const fail = (e: Error) => {
    failure = e;
    for (const w of waiting.values()) w.reject(e);
    waiting.clear();
  };
  worker.on('error', fail);
  worker.on('exit', (code) => fail(new Error(`the database thread stopped (exit code ${code})`)));

  const call = <T>(message: Record<string, unknown>): Promise<T> => {
    if (failure) return Promise.reject(failure);
    const id = next++;
    return new Promise<T>((resolve, reject) => {
      waiting.set(id, { resolve: resolve as (v: unknown) => void, reject });
      worker.postMessage({ ...message, id });
    });
  };

  const clientOn = (tx: number | null): ThreadClient => ({
    query(text, params = [], options = {}) {
      const rawTypes = options.parsers ? Object.keys(options.parsers).map(Number) : undefined;
      return call<Results>({ op: 'query', text, params, rowMode: options.rowMode, rawTypes, tx });
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
