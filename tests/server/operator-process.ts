/** The operator as staff run it in tests: a real process on an embedded database folder, and that folder opened. */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { openDatabase } from '../../server/db/client';

const run = promisify(execFile);

/** `npm run operator -- …args` on the database in `dir`: its exit code and output. */
export async function runOperatorIn(dir: string, ...args: string[]) {
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', 'scripts/operator.ts', ...args], {
      cwd: process.cwd(),
      env: { ...process.env, DATA_DIR: dir, DATABASE_URL: '', LOG_LEVEL: 'info' },
    });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const x = e as { code: number; stdout: string; stderr: string };
    return { code: x.code, stdout: x.stdout, stderr: x.stderr };
  }
}

/** `fn` with the database in `dir` open (closed after, so the operator's process can open it). */
export async function withDatabaseIn<T>(dir: string, fn: (db: Awaited<ReturnType<typeof openDatabase>>) => Promise<T>): Promise<T> {
  const database = await openDatabase({ dataDir: dir, databaseUrl: null });
  try {
    return await fn(database);
  } finally {
    await database.close();
  }
}
