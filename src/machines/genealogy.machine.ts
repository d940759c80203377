/**
 * The genealogy page (spec §2 Network › genealogy): load the tree below the member, expand any node to load
 * its next levels, fold and unfold, go one level up (never above the member), go back to the top, search a
 * username of the downline and jump to it.
 *
 * loading → ready | connectionError | error | notInNetwork | forceLogout. While ready, one request at a
 * time runs (expanding, searching or rerooting); expansions asked for meanwhile wait in a queue. A failed
 * expansion marks only that node (nodeErrors) and the tree stays. A username outside the downline (the
 * server answers search_valid false) or an id outside it (403 not_in_network) is "not in your network".
 */
import { assign, fromPromise, setup } from 'xstate';
import { networkApi } from '../api/network';
import { errorInfo, type ErrorInfo } from '../api/errors';
import type { Plan } from '../schemas/common.schema';
import type { GenealogyAnswer } from '../api/network-answers';
import { descendantIds, emptyTreeData, mergeAnswer, type TreeData } from '../lib/tree-layout';

export interface GenealogyInput {
  /** Start at this member of the downline (e.g. from ?username=…). */
  username?: string;
}

/** A root request: the member (nothing), a downline username, or a node id. */
export interface RootQuery {
  username?: string;
  id?: number;
}

export interface GenealogyContext {
  start: RootQuery;
  /** The root request in flight or last made (reroots and searches). */
  pendingRoot: RootQuery | null;
  data: TreeData;
  /** The node the drawing starts from. */
  rootId: number | null;
  /** The member's own node (the top: never above it). */
  topId: number | null;
  parentUsername: string | null;
  plan: Plan;
  maxWidth: number | null;
  maxLevels: number;
  signupFromTree: boolean;
  /** Node being expanded and the ones waiting. */
  expanding: number | null;
  queue: number[];
  nodeErrors: Record<number, ErrorInfo>;
  /** Search text last sent and whether it was refused. */
  query: string;
  notInNetwork: string | null;
  /** A reroot or search failed (connection, server): the tree stays. */
  actionError: ErrorInfo | null;
  error: ErrorInfo | null;
  /** Bumped when a new root is drawn, so a view can recentre. */
  rootVersion: number;
}

export type GenealogyEvent =
  | { type: 'tree.expand'; id: number }
  | { type: 'tree.collapse'; id: number }
  | { type: 'tree.up' }
  | { type: 'tree.top' }
  | { type: 'tree.open'; id: number }
  | { type: 'tree.search'; username: string }
  | { type: 'tree.dismiss' }
  | { type: 'tree.retry' };

const isKind = (e: unknown, ...kinds: string[]) => kinds.includes(errorInfo(e).kind);
const isNotInNetwork = (e: unknown) => {
  const info = errorInfo(e);
  return info.code === 'not_in_network' || info.kind === 'forbidden' || info.kind === 'notFound';
};

function withRoot(context: GenealogyContext, answer: GenealogyAnswer): Partial<GenealogyContext> {
  const data = mergeAnswer(emptyTreeData(), answer.affiliates, answer.root_affiliate_id, answer.max_levels, answer.more_children);
  const root = data.nodes[answer.root_affiliate_id];
  return {
    data,
    rootId: answer.root_affiliate_id,
    topId: context.topId ?? (root && root.level === 0 ? root.id : context.topId),
    parentUsername: answer.parent_username,
    plan: answer.compensation_plan,
    maxWidth: answer.max_width,
    maxLevels: answer.max_levels,
    signupFromTree: answer.signup_from_tree,
    nodeErrors: {},
    queue: [],
    expanding: null,
    notInNetwork: null,
    actionError: null,
    error: null,
    rootVersion: context.rootVersion + 1,
  };
}

const loadRoot = (q: RootQuery) => networkApi.genealogy({ id: q.id, username: q.username, is_nested: false });

export const genealogyMachine = setup({
  types: {
    context: {} as GenealogyContext,
    events: {} as GenealogyEvent,
    input: {} as GenealogyInput | undefined,
  },
  actors: {
    loadRoot: fromPromise<GenealogyAnswer, RootQuery>(({ input }) => loadRoot(input)),
    /** A node's branch, or, for a node whose children are loaded in part, the next page of them. */
    loadBranch: fromPromise<GenealogyAnswer, { id: number; from?: number }>(({ input }) =>
      networkApi.genealogy({ id: input.id, is_nested: false, children_from: input.from }),
    ),
  },
  guards: {
    hasParent: ({ context }) => context.parentUsername !== null,
    notAtTop: ({ context }) => context.topId !== null && context.rootId !== context.topId,
    /** Children already loaded (folded away or drawn): no request needed. */
    isLoaded: ({ context, event }) => 'id' in event && (!!context.data.known[event.id] || context.data.nodes[event.id]?.child_count === 0),
    canExpand: ({ context, event }) => 'id' in event && !!context.data.nodes[event.id],
    hasQueue: ({ context }) => context.queue.length > 0,
    searchFound: ({ event }) => (event as unknown as { output: GenealogyAnswer }).output.search_valid,
    searchText: ({ event }) => event.type === 'tree.search' && event.username.trim() !== '',
    isConnection: ({ event }) => isKind((event as unknown as { error: unknown }).error, 'connection'),
    isUnauthorized: ({ event }) => isKind((event as unknown as { error: unknown }).error, 'unauthorized'),
    isNotInNetwork: ({ event }) => isNotInNetwork((event as unknown as { error: unknown }).error),
  },
  actions: {
    unfold: assign({
      data: ({ context, event }) => {
        if (!('id' in event)) return context.data;
        const collapsed = { ...context.data.collapsed };
        delete collapsed[event.id];
        return { ...context.data, collapsed };
      },
      nodeErrors: ({ context, event }) => {
        if (!('id' in event)) return context.nodeErrors;
        const next = { ...context.nodeErrors };
        delete next[event.id];
        return next;
      },
    }),
    fold: assign({
      data: ({ context, event }) => {
        if (event.type !== 'tree.collapse') return context.data;
        return { ...context.data, collapsed: { ...context.data.collapsed, [event.id]: true as const } };
      },
    }),
    enqueue: assign({
      queue: ({ context, event }) =>
        'id' in event && event.id !== context.expanding && !context.queue.includes(event.id) ? [...context.queue, event.id] : context.queue,
    }),
    takeNext: assign({
      expanding: ({ context, event }) => (event.type === 'tree.expand' ? event.id : (context.queue[0] ?? null)),
      queue: ({ context, event }) => (event.type === 'tree.expand' ? context.queue : context.queue.slice(1)),
      nodeErrors: ({ context, event }) => {
        const id = event.type === 'tree.expand' ? event.id : context.queue[0];
        const next = { ...context.nodeErrors };
        delete next[id];
        return next;
      },
    }),
    mergeBranch: assign(({ context, event }) => {
      const answer = (event as unknown as { output: GenealogyAnswer }).output;
      const id = context.expanding!;
      // The next page of a wide level: added to the children loaded before.
      if (context.data.more?.[id] !== undefined) {
        return { data: mergeAnswer(context.data, answer.affiliates, answer.root_affiliate_id, answer.max_levels, answer.more_children, true), expanding: null };
      }
      // Drop what was loaded below the node before (it may have changed), then fold the answer in.
      let data = context.data;
      const collapsed = { ...data.collapsed };
      delete collapsed[id];
      data = { ...data, collapsed };
      for (const d of descendantIds(data, id)) delete collapsed[d];
      return { data: mergeAnswer(data, answer.affiliates, answer.root_affiliate_id, answer.max_levels, answer.more_children), expanding: null };
    }),
    markBranchError: assign({
      nodeErrors: ({ context, event }) => ({
        ...context.nodeErrors,
        [context.expanding!]: errorInfo((event as unknown as { error: unknown }).error),
      }),
      expanding: null,
    }),
    takeRoot: assign(({ context, event }) => withRoot(context, (event as unknown as { output: GenealogyAnswer }).output)),
    setError: assign({ error: ({ event }) => errorInfo((event as unknown as { error: unknown }).error) }),
    setActionError: assign({ actionError: ({ event }) => errorInfo((event as unknown as { error: unknown }).error) }),
    setSearch: assign({
      query: ({ event }) => (event.type === 'tree.search' ? event.username.trim() : ''),
      pendingRoot: ({ event }) => (event.type === 'tree.search' ? { username: event.username.trim() } : null),
      notInNetwork: null,
      actionError: null,
    }),
    setSearchMiss: assign({ notInNetwork: ({ context }) => context.query }),
    setRootMiss: assign({
      notInNetwork: ({ context }) => context.pendingRoot?.username ?? (context.pendingRoot?.id !== undefined ? String(context.pendingRoot.id) : ''),
    }),
    setUp: assign({ pendingRoot: ({ context }) => ({ username: context.parentUsername ?? undefined }), actionError: null, notInNetwork: null }),
    // Back to the member's own tree: no member searched any more.
    setTop: assign({ pendingRoot: () => ({}), query: '', actionError: null, notInNetwork: null }),
    setOpen: assign({
      pendingRoot: ({ event }) => (event.type === 'tree.open' ? { id: event.id } : null),
      actionError: null,
      notInNetwork: null,
    }),
    dismiss: assign({ notInNetwork: null, actionError: null }),
    clearSearch: assign({ query: '', notInNetwork: null }),
  },
}).createMachine({
  id: 'genealogy',
  context: ({ input }) => ({
    start: input?.username ? { username: input.username } : {},
    pendingRoot: null,
    data: emptyTreeData(),
    rootId: null,
    topId: null,
    parentUsername: null,
    plan: 'binary',
    maxWidth: 2,
    maxLevels: 1,
    signupFromTree: false,
    expanding: null,
    queue: [],
    nodeErrors: {},
    query: input?.username ?? '',
    notInNetwork: null,
    actionError: null,
    error: null,
    rootVersion: 0,
  }),
  initial: 'loading',
  states: {
    loading: {
      tags: ['busy'],
      invoke: {
        id: 'loadRoot',
        src: 'loadRoot',
        input: ({ context }) => context.start,
        onDone: [
          // Opened on a username outside the downline: the member's own tree, with the refusal shown.
          {
            guard: ({ context, event }) => !!context.start.username && !event.output.search_valid,
            target: 'ready',
            actions: ['takeRoot', 'setSearchMiss'],
          },
          { target: 'ready', actions: 'takeRoot' },
        ],
        onError: [
          { guard: 'isConnection', target: 'connectionError', actions: 'setError' },
          { guard: 'isUnauthorized', target: 'forceLogout', actions: 'setError' },
          { target: 'error', actions: 'setError' },
        ],
      },
    },
    connectionError: { tags: ['error'], on: { 'tree.retry': 'loading' } },
    error: { tags: ['error'], on: { 'tree.retry': 'loading' } },
    forceLogout: { tags: ['error'] },
    ready: {
      initial: 'idle',
      on: {
        'tree.collapse': { actions: 'fold' },
        'tree.dismiss': { actions: 'dismiss' },
      },
      states: {
        idle: {
          always: { guard: 'hasQueue', target: 'expanding', actions: 'takeNext' },
          on: {
            'tree.expand': [
              { guard: 'isLoaded', actions: 'unfold' },
              { guard: 'canExpand', target: 'expanding', actions: 'takeNext' },
            ],
            'tree.up': { guard: 'hasParent', target: 'rerooting', actions: 'setUp' },
            // Already on the member's own tree: only the search is dropped (the URL said none any more).
            'tree.top': [{ guard: 'notAtTop', target: 'rerooting', actions: 'setTop' }, { actions: 'clearSearch' }],
            'tree.open': { target: 'rerooting', actions: 'setOpen' },
            'tree.search': { guard: 'searchText', target: 'searching', actions: 'setSearch' },
          },
        },
        expanding: {
          tags: ['busy'],
          on: {
            'tree.expand': [{ guard: 'isLoaded', actions: 'unfold' }, { guard: 'canExpand', actions: 'enqueue' }],
          },
          invoke: {
            id: 'loadBranch',
            src: 'loadBranch',
            input: ({ context }) => ({ id: context.expanding!, from: context.data.more?.[context.expanding!] }),
            onDone: { target: 'idle', actions: 'mergeBranch' },
            onError: [
              { guard: 'isUnauthorized', target: '#genealogy.forceLogout', actions: 'setError' },
              { target: 'idle', actions: 'markBranchError' },
            ],
          },
        },
        searching: {
          tags: ['busy'],
          invoke: {
            id: 'search',
            src: 'loadRoot',
            input: ({ context }) => context.pendingRoot ?? {},
            onDone: [
              { guard: 'searchFound', target: 'idle', actions: 'takeRoot' },
              { target: 'idle', actions: 'setSearchMiss' },
            ],
            onError: [
              { guard: 'isUnauthorized', target: '#genealogy.forceLogout', actions: 'setError' },
              { guard: 'isNotInNetwork', target: 'idle', actions: 'setSearchMiss' },
              { target: 'idle', actions: 'setActionError' },
            ],
          },
        },
        rerooting: {
          tags: ['busy'],
          invoke: {
            id: 'reroot',
            src: 'loadRoot',
            input: ({ context }) => context.pendingRoot ?? {},
            onDone: { target: 'idle', actions: 'takeRoot' },
            onError: [
              { guard: 'isUnauthorized', target: '#genealogy.forceLogout', actions: 'setError' },
              { guard: 'isNotInNetwork', target: 'idle', actions: 'setRootMiss' },
              { target: 'idle', actions: 'setActionError' },
            ],
          },
        },
      },
    },
  },
});
