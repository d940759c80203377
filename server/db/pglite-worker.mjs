/**
 * The embedded database in a thread of its own (server/db/pglite-thread.ts is the other end): PGlite runs
 * here, the server's request thread only sends SQL and receives rows, so parsing, planning and executing
 * queries no longer hold up HTTP and JSON work, and the server uses two cores.
 *
 * Messages in:  { id, op: 'query', t, text?, params, tx? }                  one statement: its text, numbered
 *                                                                          by the request thread, comes the
 *                                                                          first time only (t alone later)
 *               { id, op: 'exec', text, tx? }                              several statements (migrations)
 *               { id, op: 'begin' } / { id, op: 'end', tx, commit }       a transaction, by its number
 *               { id, op: 'listen' | 'unlisten', channel }               NOTIFY of a channel
 *               { id, op: 'close' }
 * Messages out: { id, answer } for a statement: the database's answer as it came (wire-protocol messages,
 *               an ArrayBuffer handed over, not copied), which the request thread reads into rows;
 *               { id, result } for the others, { id, error }, and { channel, payload } for every notice heard.
 *
 * Plain JavaScript: a worker thread does not go through the TypeScript loader of its parent.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite, messages, protocol, types } from '@electric-sql/pglite';

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
/** Statement texts the request thread numbered, so that it sends each one once (see `query`). */
const texts = new Map();
const { serialize } = protocol;
const SYNC = serialize.sync();
const DESCRIBE_STATEMENT = serialize.describe({ type: 'S' });
const DESCRIBE_PORTAL = serialize.describe({ type: 'P' });
const EXECUTE = serialize.execute({});
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
 * The database's answer to the last `run`, as it came (wire-protocol messages), in a buffer reused from one
 * run to the next; one that grew past a few megabytes for a large answer is let go afterwards.
 */
let answer = new Uint8Array(1 << 16);
let answered = 0;
const collect = (bytes) => {
  if (answered + bytes.length > answer.length) {
    const grown = new Uint8Array(Math.max(answer.length * 2, answered + bytes.length));
    grown.set(answer.subarray(0, answered));
    answer = grown;
  }
  answer.set(bytes, answered);
  answered += bytes.length;
};

/**
 * Send protocol messages and take the answer's bytes as they are: PGlite's own reading of them (every message
 * parsed into objects, every row into values) is left out, the request thread reads rows itself. A view of
 * `answer`, valid until the next run (runs happen one at a time, under PGlite's query lock).
 */
async function run(message) {
  if (answer.length > 4 << 20) answer = new Uint8Array(1 << 16);
  answered = 0;
  await db.execProtocolRawStream(message, { syncToFs: false, onRawData: collect });
  return answer.subarray(0, answered);
}

const utf8 = new TextDecoder();
/** A zero-terminated string of `bytes` at `at`: [text, where the next field starts]. */
function cstring(bytes, at) {
  let end = at;
  while (bytes[end] !== 0) end++;
  return [utf8.decode(bytes.subarray(at, end)), end + 1];
}

/** Channels listened to by their PostgreSQL name (as NOTIFY reports it), each with the names the request thread used. */
const listening = new Map();
const postgresName = (channel) => (channel.startsWith('"') && channel.endsWith('"') ? channel.slice(1, -1) : channel.toLowerCase());

/**
 * Read an answer's message headers only: the first error fails the call, with every field PostgreSQL reported
 * (parsed as PGlite parses it, and with the statement, as PGlite's query adds); NOTIFY notices before it go to
 * the request thread at once, before the answer (as PGlite would deliver them).
 */
function check(bytes, text, params) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let at = 0; at + 5 <= bytes.length; at += 1 + view.getInt32(at + 1)) {
    const type = bytes[at];
    if (type === 65) {
      // NotificationResponse: process id, channel, payload.
      const [channel, next] = cstring(bytes, at + 9);
      const [payload] = cstring(bytes, next);
      for (const name of listening.get(channel) ?? []) parentPort.postMessage({ channel: name, payload });
    } else if (type === 69) {
      let error;
      new protocol.Parser().parse(bytes.slice(at), (m) => {
        if (!error && m instanceof messages.DatabaseError) error = m;
      });
      error.query = text;
      error.params = params;
      throw error;
    }
  }
}

/** The types of a statement's parameters, from its ParameterDescription. */
function parameterTypes(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let at = 0; at + 5 <= bytes.length; at += 1 + view.getInt32(at + 1)) {
    if (bytes[at] !== 116) continue;
    const types = [];
    for (let i = 0, n = view.getUint16(at + 5); i < n; i++) types.push(view.getInt32(at + 7 + 4 * i));
    return types;
  }
  return [];
}

/** Parameters as the database reads them: by the types it gave them, as PGlite's query serialises them. */
const valuesFor = (params, types) =>
  params.map((v, i) => {
    if (v === null || v === undefined) return null;
    const serializer = db.serializers[types[i]];
    return serializer ? serializer(v) : v.toString();
  });

/**
 * One statement, answered with its raw bytes (the request thread reads fields and rows from them). Reads are
 * prepared the first time their text is seen, then only bound and run — one exchange with the database where a
 * plain query takes five (PostgreSQL keeps a generic plan when it is as good as a fresh one); other statements
 * are parsed and run in one exchange, or two when their parameters' types must be asked first. Outside a
 * transaction it waits for any open one, as PGlite's `query` does.
 */
async function query(m) {
  const text = m.text ?? texts.get(m.t);
  const params = m.params ?? [];
  await db._checkReady();
  const statement = async () => {
    let found = prepared.get(text);
    if (!found && prepared.size < PREPARED_READS && text.length <= PREPARED_MAX_LENGTH && READ_ONLY.test(text)) {
      const name = `r${prepared.size + 1}`;
      const described = await run(concat([serialize.parse({ name, text }), serialize.describe({ type: 'S', name }), SYNC]));
      check(described, text, params);
      found = { name, types: parameterTypes(described) };
      prepared.set(text, found);
    }
    let bytes;
    if (found) {
      bytes = await run(concat([serialize.bind({ statement: found.name, values: valuesFor(params, found.types) }), DESCRIBE_PORTAL, EXECUTE, SYNC]));
    } else if (!params.length) {
      bytes = await run(concat([serialize.parse({ text }), serialize.bind({}), DESCRIBE_PORTAL, EXECUTE, SYNC]));
    } else {
      const described = await run(concat([serialize.parse({ text }), DESCRIBE_STATEMENT]));
      try {
        check(described, text, params);
      } catch (e) {
        await run(SYNC);
        throw e;
      }
      bytes = await run(concat([serialize.bind({ values: valuesFor(params, parameterTypes(described)) }), DESCRIBE_PORTAL, EXECUTE, SYNC]));
    }
    check(bytes, text, params);
    return bytes.slice().buffer;
  };
  if (m.tx === undefined || m.tx === null) return db._runExclusiveTransaction(() => db._runExclusiveQuery(statement));
  if (!open.has(m.tx)) throw new Error(`transaction ${m.tx} is not open`);
  return db._runExclusiveQuery(statement);
}

/** Open transactions by number: the PGlite transaction and how to end it. */
const open = new Map();
let nextTx = 1;
const stops = new Map();
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
    case 'query':
      return query(m);
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
      // Notices in answers PGlite reads itself (a transaction's COMMIT, migrations) reach this listener; those in
      // answers read here (`check`), the request thread directly.
      if (!stops.has(m.channel)) {
        stops.set(m.channel, await db.listen(m.channel, (payload) => parentPort.postMessage({ channel: m.channel, payload })));
        const name = postgresName(m.channel);
        if (!listening.has(name)) listening.set(name, new Set());
        listening.get(name).add(m.channel);
      }
      return null;
    }
    case 'unlisten': {
      const stop = stops.get(m.channel);
      stops.delete(m.channel);
      const names = listening.get(postgresName(m.channel));
      names?.delete(m.channel);
      if (names?.size === 0) listening.delete(postgresName(m.channel));
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
  // A text numbered by the request thread is kept before anything else runs: later messages name it by number.
  if (m.t !== undefined && m.text !== undefined) texts.set(m.t, m.text);
  handle(m).then(
    // A statement's answer moves to the request thread as it is (its buffer is handed over, not copied).
    (result) => (m.op === 'query' ? parentPort.postMessage({ id: m.id, answer: result }, [result]) : parentPort.postMessage({ id: m.id, result })),
    (e) => parentPort.postMessage({ id: m.id, error: errorData(e) }),
  );
});

/**
 * The array types PGlite knew when it opened (it reads their elements with the element type's parser): the
 * request thread reads rows with the same parsers.
 */
const { rows: arrays } = await db.query(
  `SELECT b.oid AS element, b.typarray AS array FROM pg_catalog.pg_type a JOIN pg_catalog.pg_type b ON b.oid = a.typelem
   WHERE a.typcategory = 'A' GROUP BY b.oid, b.typarray`,
);
const arrayTypes = arrays.filter((r) => !(r.array in types.parsers) && r.array in db.parsers).map((r) => [r.array, r.element]);
parentPort.postMessage({ ready: true, arrayTypes });
