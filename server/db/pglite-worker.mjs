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
import { PGlite, parse, protocol } from '@electric-sql/pglite';

const db = workerData.dataDir ? new PGlite(workerData.dataDir) : new PGlite();
await db.waitReady;

/** Statements that change nothing. */
const READ_ONLY = /^\s*(select|values)\b/i;
/** Most reads kept prepared (their statements and plans live as long as the database is open). */
const PREPARED_READS = 500;
/** Longer statements are not kept (a list of ids written out is not worth a plan of its own). */
const PREPARED_MAX_LENGTH = 8_000;
/** Prepared reads by text: the statement's name and the types of its parameters. */
const prepared = new Map();
const { serialize } = protocol;
const concat = (parts) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};

/**
 * A read with parameters outside any transaction, as a prepared statement: parsed and planned the first
 * time its text is seen, then only bound and run — in one exchange with the database instead of the five
 * of a plain query (PostgreSQL keeps a generic plan when it is as good as a fresh one). Answers what
 * `query` answers; null when the read is not one to prepare.
 */
async function preparedRead(text, params, options) {
  if (!params.length || !READ_ONLY.test(text)) return null;
  let statement = prepared.get(text);
  if (!statement && (prepared.size >= PREPARED_READS || text.length > PREPARED_MAX_LENGTH)) return null;
  // As `query` does: one statement at a time, none while a transaction is open.
  return db._runExclusiveTransaction(() =>
    db._runExclusiveQuery(async () => {
      if (!statement) {
        const name = `r${prepared.size + 1}`;
        const { messages } = await db.execProtocol(concat([serialize.parse({ name, text }), serialize.describe({ type: 'S', name }), serialize.sync()]), {
          syncToFs: false,
        });
        const described = messages.find((m) => m.name === 'parameterDescription');
        statement = { name, types: described?.dataTypeIDs ?? [] };
        prepared.set(text, statement);
      }
      const values = params.map((v, i) => {
        if (v === null || v === undefined) return null;
        const serializer = db.serializers[statement.types[i]];
        return serializer ? serializer(v) : v.toString();
      });
      const { messages } = await db.execProtocol(
        concat([serialize.bind({ statement: statement.name, values }), serialize.describe({ type: 'P' }), serialize.execute({}), serialize.sync()]),
        { syncToFs: false },
      );
      return parse.parseResults(messages, db.parsers, options)[0];
    }),
  );
}

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
      const options = { rowMode: m.rowMode ?? 'object', ...(parsers ? { parsers } : {}) };
      const r = (m.tx === undefined || m.tx === null ? await preparedRead(m.text, m.params ?? [], options) : null) ?? (await on(m.tx).query(m.text, m.params ?? [], options));
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
