/**
 * On a real PostgreSQL server only (TEST_DATABASE_URL; .ci/run runs this folder with the server tests on
 * PostgreSQL): what the reference server does when the database ends its connections.
 */
import { sql } from 'drizzle-orm';
import { startTestServer, type TestServer } from '../support/server';
import { get, login } from '../server/helpers';

let s: TestServer;
beforeAll(async () => {
  if (!process.env.TEST_DATABASE_URL) throw new Error('tests/server-pg needs TEST_DATABASE_URL (a PostgreSQL server)');
  s = await startTestServer();
});
afterAll(async () => {
  await s?.close();
});

test('idle connections ended by the database: reported, not fatal; the next calls are answered', async () => {
  const reported = vi.spyOn(console, 'error').mockImplementation(() => {});
  try {
    const a = await login(s.app, 'demo');
    // Several calls at once leave several idle connections in the pool.
    await Promise.all(Array.from({ length: 6 }, () => get(s.app, '/api/auth_check', { token: a.token })));
    const [{ ended }] = await s.database.rows<{ ended: number }>(
      sql`SELECT count(*)::int AS ended FROM (
        SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()
      ) t`,
    );
    expect(ended).toBeGreaterThan(0);
    await new Promise((r) => setTimeout(r, 300));
    expect(reported).toHaveBeenCalledWith(expect.stringContaining('an idle connection was closed'));
    const answers = await Promise.all(Array.from({ length: 6 }, () => get(s.app, '/api/auth_check', { token: a.token })));
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
  } finally {
    reported.mockRestore();
  }
});
