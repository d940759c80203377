import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { GenealogyAnswer } from '../../src/api/network-answers';
import { genealogyMachine, type RootQuery } from '../../src/machines/genealogy.machine';
import { ApiError, ConnectionError } from '../../src/api/errors';
import type { Genealogy } from '../../src/schemas/network.schema';
import { fullTree, genealogyAnswer, treeNode } from '../support/network-fixtures';

/** A fake server: the member m1 with a binary tree of 6 levels; answers 2 levels below any node. */
function fakeServer() {
  const all = fullTree(1, 6, 2, 'binary', 0, false);
  const byId = new Map(all.map((n) => [n.id, n]));
  const byName = new Map(all.map((n) => [n.username, n]));
  const below = (rootId: number, levels: number) => {
    const root = byId.get(rootId)!;
    return all.filter((n) => {
      let cur: typeof n | undefined = n;
      let d = 0;
      while (cur && cur.id !== rootId && d <= levels) {
        cur = cur.parent_id === null ? undefined : byId.get(cur.parent_id);
        d++;
      }
      return cur?.id === rootId && n.level - root.level <= levels;
    });
  };
  const answer = (rootId: number, search: boolean): Genealogy => {
    const root = byId.get(rootId)!;
    const parent = root.parent_id === null ? null : byId.get(root.parent_id)!;
    return genealogyAnswer(below(rootId, 2), { root_affiliate_id: rootId, search_valid: search, parent_username: parent?.username ?? null, max_levels: 2 });
  };
  const calls: Array<RootQuery | number> = [];
  return {
    all,
    calls,
    fail: new Map<number, unknown>(),
    loadRoot(q: RootQuery) {
      calls.push(q);
      if (q.id !== undefined) {
        if (!byId.has(q.id)) return Promise.reject(new ApiError('forbidden', 403, { error_code: 'not_in_network' }));
        return Promise.resolve(answer(q.id, false));
      }
      if (q.username) {
        const hit = byName.get(q.username);
        return Promise.resolve(hit ? answer(hit.id, true) : answer(1, false));
      }
      return Promise.resolve(answer(1, false));
    },
  };
}

function start(server = fakeServer(), input?: { username?: string }) {
  const actor = createActor(
    genealogyMachine.provide({
      actors: {
        loadRoot: fromPromise<GenealogyAnswer, RootQuery>(({ input: q }) => server.loadRoot(q)),
        loadBranch: fromPromise<GenealogyAnswer, { id: number; from?: number }>(({ input: { id } }) => {
          server.calls.push(id);
          const failure = server.fail.get(id);
          return failure ? Promise.reject(failure) : server.loadRoot({ id });
        }),
      },
    }),
    { input },
  );
  actor.start();
  return { actor, server };
}

const idle = (actor: ReturnType<typeof start>['actor']) => waitFor(actor, (s) => s.matches({ ready: 'idle' }));

describe('genealogy machine', () => {
  it('loads the member tree: root, top, plan and what is known', async () => {
    const { actor } = start();
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    const s = await idle(actor);
    expect(s.context.rootId).toBe(1);
    expect(s.context.topId).toBe(1);
    expect(s.context.parentUsername).toBeNull();
    expect(Object.keys(s.context.data.nodes)).toHaveLength(7);
    expect(s.context.data.known[2]).toBe(true);
    expect(s.context.data.known[4]).toBeUndefined();
  });

  it('expands a node of the last level by loading its next levels; the rest of the tree stays', async () => {
    const { actor, server } = start();
    await idle(actor);
    actor.send({ type: 'tree.expand', id: 4 });
    expect(actor.getSnapshot().matches({ ready: 'expanding' })).toBe(true);
    const s = await idle(actor);
    expect(server.calls).toContain(4);
    expect(s.context.data.known[4]).toBe(true);
    expect(s.context.data.children[4]).toHaveLength(2);
    expect(Object.keys(s.context.data.nodes)).toHaveLength(7 + 6);
    expect(s.context.rootId).toBe(1);
  });

  it('queues expansions asked for while one is loading and loads them all', async () => {
    const { actor } = start();
    await idle(actor);
    actor.send({ type: 'tree.expand', id: 4 });
    actor.send({ type: 'tree.expand', id: 5 });
    actor.send({ type: 'tree.expand', id: 5 });
    expect(actor.getSnapshot().context.queue).toEqual([5]);
    await waitFor(actor, (s) => s.matches({ ready: 'idle' }) && !!s.context.data.known[5]);
    expect(actor.getSnapshot().context.data.known[4]).toBe(true);
  });

  it('folds and unfolds without asking the server again', async () => {
    const { actor, server } = start();
    await idle(actor);
    actor.send({ type: 'tree.collapse', id: 2 });
    expect(actor.getSnapshot().context.data.collapsed[2]).toBe(true);
    const before = server.calls.length;
    actor.send({ type: 'tree.expand', id: 2 });
    expect(actor.getSnapshot().context.data.collapsed[2]).toBeUndefined();
    expect(actor.getSnapshot().matches({ ready: 'idle' })).toBe(true);
    expect(server.calls.length).toBe(before);
  });

  it('a failed expansion marks that node only; a retry clears it', async () => {
    const { actor, server } = start();
    await idle(actor);
    server.fail.set(4, new ConnectionError());
    actor.send({ type: 'tree.expand', id: 4 });
    let s = await idle(actor);
    expect(s.context.nodeErrors[4]?.kind).toBe('connection');
    expect(Object.keys(s.context.data.nodes)).toHaveLength(7);
    server.fail.delete(4);
    actor.send({ type: 'tree.expand', id: 4 });
    expect(actor.getSnapshot().context.nodeErrors[4]).toBeUndefined();
    s = await idle(actor);
    expect(s.context.data.known[4]).toBe(true);
  });

  it('a 401 on an expansion ends in forceLogout', async () => {
    const { actor, server } = start();
    await idle(actor);
    server.fail.set(4, new ApiError('unauthorized', 401, {}));
    actor.send({ type: 'tree.expand', id: 4 });
    await waitFor(actor, (s) => s.matches('forceLogout'));
  });

  it('searches a downline username and jumps to it; goes up; never above the member', async () => {
    const { actor } = start();
    await idle(actor);
    actor.send({ type: 'tree.search', username: '  m10 ' });
    let s = await idle(actor);
    expect(s.context.rootId).toBe(10);
    expect(s.context.query).toBe('m10');
    expect(s.context.parentUsername).toBe('m5');
    actor.send({ type: 'tree.up' });
    s = await idle(actor);
    expect(s.context.rootId).toBe(5);
    actor.send({ type: 'tree.up' });
    s = await idle(actor);
    expect(s.context.rootId).toBe(2);
    actor.send({ type: 'tree.up' });
    s = await idle(actor);
    expect(s.context.rootId).toBe(1);
    expect(s.context.parentUsername).toBeNull();
    actor.send({ type: 'tree.up' });
    expect(actor.getSnapshot().matches({ ready: 'idle' })).toBe(true);
  });

  it('a username outside the downline is "not in your network" and the tree stays', async () => {
    const { actor } = start();
    await idle(actor);
    actor.send({ type: 'tree.search', username: 'stranger' });
    const s = await idle(actor);
    expect(s.context.notInNetwork).toBe('stranger');
    expect(s.context.rootId).toBe(1);
    actor.send({ type: 'tree.dismiss' });
    expect(actor.getSnapshot().context.notInNetwork).toBeNull();
  });

  it('an id outside the downline (403) is "not in your network"', async () => {
    const { actor } = start();
    await idle(actor);
    actor.send({ type: 'tree.open', id: 99999 });
    const s = await idle(actor);
    expect(s.context.notInNetwork).toBe('99999');
    expect(s.context.rootId).toBe(1);
  });

  it('opened on a username: starts there, or shows the refusal over the own tree', async () => {
    let { actor } = start(fakeServer(), { username: 'm5' });
    expect((await idle(actor)).context.rootId).toBe(5);
    expect(actor.getSnapshot().context.topId).toBeNull();
    actor.send({ type: 'tree.top' });
    ({ actor } = start(fakeServer(), { username: 'nobody' }));
    const s = await idle(actor);
    expect(s.context.rootId).toBe(1);
    expect(s.context.notInNetwork).toBe('nobody');
  });

  it('first load failures: connection, server (with retry), unauthorized', async () => {
    for (const [error, state] of [
      [new ConnectionError(), 'connectionError'],
      [new ApiError('server', 500, {}), 'error'],
      [new ApiError('unauthorized', 401, {}), 'forceLogout'],
    ] as const) {
      let fail = true;
      const actor = createActor(
        genealogyMachine.provide({
          actors: { loadRoot: fromPromise(() => (fail ? Promise.reject(error) : Promise.resolve(genealogyAnswer([treeNode(1, null)])))) },
        }),
        { input: {} },
      ).start();
      await waitFor(actor, (s) => s.matches(state));
      expect(actor.getSnapshot().hasTag('error')).toBe(true);
      if (state !== 'forceLogout') {
        fail = false;
        actor.send({ type: 'tree.retry' });
        await waitFor(actor, (s) => s.matches('ready'));
      }
    }
  });

  it('a failed search for connection reasons keeps the tree and says so', async () => {
    const server = fakeServer();
    const { actor } = start(server);
    await idle(actor);
    server.loadRoot = () => Promise.reject(new ConnectionError());
    actor.send({ type: 'tree.search', username: 'm3' });
    const s = await idle(actor);
    expect(s.context.actionError?.kind).toBe('connection');
    expect(s.context.rootId).toBe(1);
  });
});
