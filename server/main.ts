/**
 * The server's entry (`npm start`, `npm run serve`, the end-to-end harness and the load bench): the server
 * itself is server/start.ts, run in a Node process whose young generation is large enough for the server's
 * load.
 *
 * Every call allocates short-lived objects (the request, the rows read, the answer); V8 collects them with a
 * scavenge each time its young generation (a semi-space, 16 MB by default) fills, and a scavenge stops every
 * call in flight for as long as it copies the objects still alive. At 50 connections that was a scavenge
 * every ~130 calls, and the slowest calls were those caught by them. With SEMI_SPACE_MB the server
 * scavenges about four times less often, in pauses no longer than before, and spends half the time in them.
 *
 * The size is a V8 start-up setting (it cannot be changed inside a running process) that NODE_OPTIONS
 * accepts and every Node version (20.19 on) knows, so the process started without it starts the server again
 * with it (cluster workers inherit it), forwards the stop signals and ends as the server ends. Started with
 * the setting already (`node --max-semi-space-size=N …`, `tsx --max-semi-space-size=N server/main.ts` or
 * NODE_OPTIONS), the server runs in this process at that size.
 */
import { spawn } from 'node:child_process';
import cluster from 'node:cluster';
import { constants } from 'node:os';

/** The largest semi-space of the young generation, in MB (V8's default: 16). */
export const SEMI_SPACE_MB = 64;
const FLAG = '--max-semi-space-size';

/** Set on the server this process starts, which ends with it even when it is killed outright (their channel closes). */
const LAUNCHED = 'UPLINE_SERVER_LAUNCHED';

const sized = process.execArgv.some((a) => a.startsWith(FLAG)) || (process.env.NODE_OPTIONS ?? '').includes(FLAG);

if (sized || !cluster.isPrimary) {
  if (cluster.isPrimary && process.env[LAUNCHED] && process.channel) {
    delete process.env[LAUNCHED];
    process.channel.unref();
    process.on('disconnect', () => process.exit(0));
  }
  await import('./start');
} else {
  const server = spawn(process.execPath, [...process.execArgv, `${FLAG}=${SEMI_SPACE_MB}`, ...process.argv.slice(1)], {
    stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
    env: { ...process.env, [LAUNCHED]: '1' },
  });
  // A terminal's Ctrl-C reaches the server too (same process group); a signal sent to this process alone is passed on.
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(sig, () => server.kill(sig));
  server.on('exit', (code, signal) => process.exit(code ?? (signal ? 128 + (constants.signals[signal] ?? 0) : 1)));
  server.on('error', (err) => {
    console.error(`could not start the server: ${err.message}`);
    process.exit(1);
  });
}
