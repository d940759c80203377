/**
 * The embedded database in a thread of its own (server/db/pglite-thread.ts is the other end): PGlite runs
 * here, the server's request thread only sends SQL and receives rows, so parsing, planning and executing
 * queries no longer hold up HTTP and JSON work, and the server uses two cores.
 *
 * Messages in:  { id, op: 'query', text, params, rowMode, rawTypes, tx? }  rows of one statement
 *               { id, op: 'exec', text, tx? }                              several statements (migrations)
 *               { id, op: 'begin' } / { id, op: 'end', tx, commit }       a transaction, by its number
 *               { id, op: 'listen' | 'unlisten', channel }               NOTIFY of a channel
 *               { id, op: 'close' }
 * Messages out: { id, result } or { id, error }, and { channel, payload } for every notice heard.
 *
 * Plain JavaScript: a worker thread does not go through the TypeScript loader of its parent.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';

const db = workerData.dataDir ? new PGlite(workerData.dataDir) : new PGlite();
await db.waitReady;

/** Open transactions by number: the PGlite transaction and how to end it. */
const open = new Map();
let nextTx = 1;
const stops = new Map();
const identity = (v) => v;
const ROLLBACK = Symbol('rollback');

const on = (tx) => {
  if (tx === undefined || tx === null) return db;
  const t = open.get(tx);
  if (!t) throw new Error(`transaction ${tx} is not open`);
  return t.tx;
};

/** An error as data: message and every field PostgreSQL reported (code, detail, constraint…). */
function errorData(e) {
  if (!(e instanceof Error)) return { message: String(e) };
  const out = { message: e.message, name: e.name };
  for (const k of Object.keys(e)) {
    const v = e[k];
    if (v === undefined || typeof v === 'function') continue;
    if (typeof v === 'object' && v !== null && !(v instanceof Date)) continue;
    out[k] = v;
  }
  return out;
}

async function handle(m) {
  switch (m.op) {
    case 'query': {
      // The request thread names the types it wants as the database's text (drizzle reads dates and
      // intervals itself); parser functions cannot cross threads.
      const parsers = m.rawTypes ? Object.fromEntries(m.rawTypes.map((t) => [t, identity])) : undefined;
      const r = await on(m.tx).query(m.text, m.params ?? [], { rowMode: m.rowMode ?? 'object', ...(parsers ? { parsers } : {}) });
      return { rows: r.rows, fields: r.fields, affectedRows: r.affectedRows };
    }
    case 'exec': {
      const r = await on(m.tx).exec(m.text);
      return r.map((x) => ({ rows: x.rows, fields: x.fields, affectedRows: x.affectedRows }));
    }
    case 'begin': {
      const id = nextTx++;
      let started;
      const ready = new Promise((resolve) => (started = resolve));
      // PGlite runs one transaction at a time; it stays open until the request thread ends it.
      const done = db
        .transaction((tx) => new Promise((commit, rollback) => {
          open.set(id, { tx, commit, rollback, done });
          started();
        }))
        .catch((e) => {
          if (e !== ROLLBACK) throw e;
        });
      await Promise.race([ready, done]);
      return id;
    }
    case 'end': {
      const t = open.get(m.tx);
      if (!t) throw new Error(`transaction ${m.tx} is not open`);
      open.delete(m.tx);
      if (m.commit) t.commit();
      else t.rollback(ROLLBACK);
      await t.done;
      return null;
    }
    case 'listen': {
      if (!stops.has(m.channel)) stops.set(m.channel, await db.listen(m.channel, (payload) => parentPort.postMessage({ channel: m.channel, payload })));
      return null;
    }
    case 'unlisten': {
      const stop = stops.get(m.channel);
      stops.delete(m.channel);
      if (stop && !db.closed) await stop();
      return null;
    }
    case 'close': {
      if (!db.closed) await db.close();
      return null;
    }
    default:
      throw new Error(`unknown operation ${m.op}`);
  }
}

parentPort.on('message', (m) => {
  handle(m).then(
    (result) => parentPort.postMessage({ id: m.id, result }),
    (e) => parentPort.postMessage({ id: m.id, error: errorData(e) }),
  );
});
parentPort.postMessage({ ready: true });
