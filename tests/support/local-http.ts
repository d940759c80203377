/** A local HTTP server for the API client tests, and the client's hooks as mocks. */
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, vi } from 'vitest';
import type { ClientHooks } from '../../src/api/client';

/** The hooks the client calls (modules received, 401, blocked user, blocked demo), as mocks. */
export function clientHookMocks() {
  return {
    onModules: vi.fn<ClientHooks['onModules']>(),
    onUnauthorized: vi.fn<ClientHooks['onUnauthorized']>(),
    onUserBlocked: vi.fn<ClientHooks['onUserBlocked']>(),
    onDemoBlocked: vi.fn<ClientHooks['onDemoBlocked']>(),
  };
}

/** Serves `handler` on a free local port for the tests of the file; `baseURL` is set once it listens. */
export function localHttpServer(handler: RequestListener): { baseURL: string } {
  const where = { baseURL: '' };
  let server: Server;
  beforeAll(async () => {
    server = createServer(handler);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    where.baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return where;
}
