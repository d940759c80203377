/**
 * The bare stack, as the load bench's ceiling: Fastify answering GET /page with the 20 newest ledger entries
 * of one member's wallet (a keyset page of one index, like a wallet statement) from a pg pool of as many
 * connections as the server keeps (DATABASE_POOL_SIZE, databasePoolSize), as JSON. No authentication, validation or hooks. DATABASE_URL and PORT from the environment.
 */
import Fastify from 'fastify';
import pg from 'pg';
import { databasePoolSize } from '../../server/config';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: databasePoolSize() });
const [{ id }] = (
  await pool.query(`SELECT a.id FROM ledger_accounts a JOIN members m ON m.id = a.member_id WHERE m.username = 'demo'`)
).rows as Array<{ id: number }>;
const app = Fastify();
app.get('/page', async () => {
  const { rows } = await pool.query(
    `SELECT transaction_id, amount::text AS amount, created_at FROM ledger_entries WHERE account_id = $1
     ORDER BY created_at DESC, transaction_id DESC LIMIT 20`,
    [id],
  );
  return { data: rows };
});
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
