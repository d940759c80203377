// @vitest-environment node
/** The verified sessions a server keeps for a moment (server/lib/session-cache.ts). */
import { describe, expect, it } from 'vitest';
import { SessionCache } from '../../server/lib/session-cache';

const found = (id: number, expiresInMs = 3_600_000) => ({ session: { id, expiresAt: new Date(Date.now() + expiresInMs) } });

describe('kept sessions', () => {
  it('are looked up once while fresh, and again once dropped', async () => {
    const cache = new SessionCache<ReturnType<typeof found>>(60_000);
    let lookups = 0;
    const load = async () => (lookups++, found(1));
    await cache.find('a', load);
    await cache.find('a', load);
    expect(lookups).toBe(1);
    cache.clear();
    expect((await cache.find('a', load))?.session.id).toBe(1);
    expect(lookups).toBe(2);
  });

  it('are never kept past the end of their session, nor when not found', async () => {
    const cache = new SessionCache<ReturnType<typeof found>>(60_000);
    let lookups = 0;
    await cache.find('ending', async () => (lookups++, found(2, 30)));
    await new Promise((r) => setTimeout(r, 60));
    await cache.find('ending', async () => (lookups++, null));
    expect(lookups).toBe(2);
    expect(await cache.find('ending', async () => (lookups++, null))).toBeNull();
    expect(lookups).toBe(3);
  });

  it('a lookup under way when they are dropped is answered but not kept', async () => {
    const cache = new SessionCache<ReturnType<typeof found>>(60_000);
    let release!: () => void;
    const slow = cache.find('b', () => new Promise((r) => (release = () => r(found(3)))));
    cache.clear();
    release();
    expect((await slow)?.session.id).toBe(3);
    let lookups = 0;
    await cache.find('b', async () => (lookups++, found(3)));
    expect(lookups).toBe(1);
  });

  it('with no time to keep them, every call is looked up', async () => {
    const cache = new SessionCache<ReturnType<typeof found>>(0);
    let lookups = 0;
    for (let i = 0; i < 3; i++) await cache.find('c', async () => (lookups++, found(4)));
    expect(lookups).toBe(3);
    expect(cache.size).toBe(0);
  });
});
