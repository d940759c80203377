/**
 * A PostgreSQL server of the bench's own: a fresh cluster in a temporary folder on a free port, from the
 * binaries in /usr/lib/postgresql/<version>/bin (the newest), trusted local connections, removed on stop.
 * Run as root, the cluster belongs to the `postgres` account (PostgreSQL refuses to run as root).
 */
import { execFileSync, spawn } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

function binaries(): string | null {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((v) => existsSync(path.join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length ? path.join(root, versions[0], 'bin') : null;
}

export async function startPostgres(): Promise<{ url: string; stop(): Promise<void> } | null> {
  const bin = binaries();
  if (!bin) return null;
  const dir = mkdtempSync(path.join(tmpdir(), 'upline-pg-'));
  const owner = process.getuid?.() === 0 ? { uid: Number(execFileSync('id', ['-u', 'postgres']).toString()), gid: Number(execFileSync('id', ['-g', 'postgres']).toString()) } : {};
  if ('uid' in owner) chownSync(dir, owner.uid!, owner.gid!);
  const data = path.join(dir, 'data');
  execFileSync(path.join(bin, 'initdb'), ['-D', data, '-U', 'upline', '--auth=trust', '-E', 'UTF8', '--no-sync'], { ...owner, stdio: 'ignore' });
  const port = await freePort();
  const server = spawn(
    path.join(bin, 'postgres'),
    ['-D', data, '-p', String(port), '-k', dir, '-c', 'listen_addresses=127.0.0.1', '-c', 'fsync=off', '-c', 'max_connections=200', '-c', 'shared_buffers=128MB'],
    { ...owner, stdio: 'ignore' },
  );
  const url = `postgres://upline@127.0.0.1:${port}/postgres`;
  const pg = (await import('pg')).default;
  for (let i = 0; ; i++) {
    const c = new pg.Client({ connectionString: url });
    try {
      await c.connect();
      await c.end();
      break;
    } catch {
      if (i > 100 || server.exitCode !== null) throw new Error('the bench PostgreSQL did not start');
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return {
    url,
    async stop() {
      server.kill('SIGINT');
      await new Promise((r) => (server.exitCode !== null ? r(null) : server.once('exit', r)));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
