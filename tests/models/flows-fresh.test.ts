// @vitest-environment node
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  generateFlowDocs,
  readFlowDocs,
  eventLabel,
  guardLabel,
  actionLabel,
  factoryCallsOutsideMachines,
  factoryPages,
  renderFactoryPage,
  INDEX_FILE,
  SRC_DIR,
} from '../../scripts/flows';
import { execFileSync } from 'node:child_process';
import { JSDOM } from 'jsdom';
import { not, setup } from 'xstate';
import { diffMachines, machineJson, renderChangesPage, summarizeChanges, type MachineJson } from '../../scripts/flow-site';
import { machinesAt, MACHINES_JSON, SITE_INDEX } from '../../scripts/flows';
import { factoryStamp } from '../../src/machines/factory-registry';

/** A factory whose machines come in two shapes: with or without a confirmation step. */
function createStepMachine(id: string, confirm: boolean) {
  return setup({}).createMachine({
    id,
    meta: factoryStamp('createStepMachine'),
    initial: 'editing',
    states: confirm
      ? { editing: { on: { next: 'confirming' } }, confirming: { on: { next: 'done' } }, done: { type: 'final' } }
      : { editing: { on: { next: 'done' } }, done: { type: 'final' } },
  });
}
const quickStep = createStepMachine('quick', false);
const confirmedStep = createStepMachine('confirmed', true);
const otherQuickStep = createStepMachine('otherQuick', false);

const generated = await generateFlowDocs();
const diagrams = [...generated].filter(([name]) => name !== INDEX_FILE && name.endsWith('.md'));

describe('docs/flows', () => {
  it('matches what `npm run flows` generates from src/machines, the site included (run it after changing a machine)', () => {
    const onDisk = readFlowDocs();
    expect([...onDisk.keys()].sort(), 'files in docs/flows').toEqual([...generated.keys()].sort());
    for (const [name, content] of generated) expect(onDisk.get(name), `docs/flows/${name} is stale`).toBe(content);
  });

  it('draws every machine with a state diagram and a transition table', () => {
    expect(generated.has('session.md')).toBe(true);
    for (const [name, content] of diagrams) {
      expect(content, name).toContain('```mermaid\nstateDiagram-v2\n');
      expect(content, name).toContain('| State | Event | Guard | Target | Actions |');
    }
    const session = generated.get('session.md')!;
    expect(session).toContain('Drawn from `src/machines/session.machine.ts` (export `sessionMachine`)');
    expect(session).toContain('[*] --> s_booting');
    expect(session).toContain('s_booting --> s_bootConnectionError : error: boot [errorIsConnection]');
    expect(session).toContain('| booting | done: boot | bootSignedIn | authenticated |');
  });

  it('draws a factory once, named after it, with the machines it made instead of a copy per machine', () => {
    expect(generated.has('homeBinary.md'), 'no page per load machine').toBe(false);
    expect(generated.has('transactionsList.md'), 'no page per paged list').toBe(false);
    const load = generated.get('createLoadMachine.md')!;
    expect(load).toMatch(/^# createLoadMachine\n/);
    expect(load.match(/```mermaid/g)).toHaveLength(1);
    expect(load).toContain('| `homeBinary` | `src/machines/home.machine.ts:40` | `homeBinaryMachine` | `GET /api/home/binary (homeApi.binary)` | — | — |');
    // A loader that is a function of its own file is followed to the calls it makes.
    expect(load).toMatch(/\| `homeDashboardMore` \|[^\n]*`GET \/api\/home\/dashboard\/extra \(homeApi.dashboardExtra\)`<br>`GET \/api\/home\/promotions/);
    // The input: the loader's parameters; path parameters of the endpoint are named.
    expect(load).toContain('| `orderDetail` | `src/machines/order-detail.machine.ts:5` | `orderDetailMachine` | `GET /api/orders/:id (ordersApi.order)` | `(id: number)` |');
    expect(load).toContain('none: the generic machine, provide `load` per use');
    const lists = generated.get('createPagedListMachine.md')!;
    expect(lists).toContain(
      '| `transactionsList` | `src/machines/wallet-lists.machine.ts:31` | `transactionsListMachine` | `GET /api/wallet/transactions (walletApi.transactions)` | `<Transaction, ListFilterState, ListMeta> ({ filters, next })` | — |',
    );
  });

  it('draws a factory whose machines come in several shapes once per shape, on one page', async () => {
    const file = 'tests/models/flows-fresh.test.ts';
    const found = Object.entries({ quickStep, confirmedStep, otherQuickStep }).map(([exportName, machine]) => ({ file, exportName, machine, factory: 'createStepMachine' }));
    const [page, ...others] = await factoryPages(found);
    expect(others).toEqual([]);
    const doc = renderFactoryPage(page);
    expect(doc.match(/```mermaid/g)).toHaveLength(2);
    expect(doc).toContain('3 machines, 2 shapes (one diagram each)');
    expect(doc).toContain('## Shape 1\n\nMachines: `quick`, `otherQuick`.');
    expect(doc).toContain('## Shape 2\n\nMachines: `confirmed`.');
    expect(doc).toMatch(/\| `confirmed` \| `tests\/models\/flows-fresh.test.ts:\d+` \| `confirmedStep` \| none \| — \| — \| 2 \|/);
  });

  it('indexes every diagram: factories with their machine counts, and the machines written by hand', () => {
    const index = generated.get(INDEX_FILE)!;
    for (const [name] of diagrams) expect(index, name).toContain(`](${name})`);
    const loadCount = (generated.get('createLoadMachine.md')!.match(/^\| `[^`]+` \| `src\//gm) ?? []).length;
    expect(index).toContain(`| [createLoadMachine](createLoadMachine.md) | \`src/machines/load.machine.ts\` | ${loadCount} | 1 |`);
    expect(index).toContain('| [session](session.md) | `src/machines/session.machine.ts` | `sessionMachine` |');
  });

  it('labels events, guards and actions readably', () => {
    expect(eventLabel('xstate.done.actor.boot')).toBe('done: boot');
    expect(eventLabel('xstate.error.actor.call')).toBe('error: call');
    expect(eventLabel('xstate.after.500.otpLogin.code')).toBe('after 500ms');
    expect(eventLabel('xstate.after.resendDelay.otpLogin.code')).toBe('after resendDelay');
    expect(eventLabel('')).toBe('always');
    expect(guardLabel({ type: 'pathInArea', params: { area: 'login' } })).toBe('pathInArea(login)');
    expect(guardLabel(not('isAuthenticated'))).toBe('not(isAuthenticated)');
    expect(actionLabel({ type: 'navigate', params: { to: '/' } })).toBe('navigate');
  });

  it('finds factory calls in source text, not mentions of the factory in comments, strings, imports or types', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'flows-'));
    try {
      const api = path.relative(dir, path.join(SRC_DIR, 'api/home')).split(path.sep).join('/');
      const machines = path.relative(dir, path.join(SRC_DIR, 'machines/load.machine')).split(path.sep).join('/');
      writeFileSync(
        path.join(dir, 'page.routes.tsx'),
        [
          `import { createLoadMachine } from '${machines}';`,
          `import { homeApi } from '${api}';`,
          `// createLoadMachine('inComment', () => homeApi.dummy())`,
          `const label = "createLoadMachine('inString')";`,
          `const re = /createLoadMachine\\('inRegExp'/;`,
          'type Made = ReturnType<typeof createLoadMachine<number>>;',
          `const link = \`/\${label}\`;`,
          `export const ranksMachine = createLoadMachine<unknown, { month: string }>('ranks', ({ month }) =>`,
          '  homeApi.ranks(),',
          ');',
          'export const View = () => <a href={link}>{re.source}</a>;',
          `export const table = [{ path: '/x', machine: createLoadMachine({ id: 'inTable' }, () => homeApi.binary()) }, { path: '/y' }];`,
          `export const tuned = createLoadMachine('tuned', () => homeApi.packages()).provide({ actors: { load: other }, delays: { wait: 5 } });`,
        ].join('\n'),
      );
      const found = factoryCallsOutsideMachines(['createLoadMachine'], dir);
      expect(found).toHaveLength(3);
      expect(found[2]).toMatchObject({ exportName: 'tuned', idLiteral: 'tuned', line: 13, provides: 'actors: load; delays: wait' });
      expect(found[1]).toEqual({
        factory: 'createLoadMachine',
        exportName: null,
        idLiteral: 'inTable',
        file: expect.stringMatching(/page\.routes\.tsx$/),
        line: 12,
        calls: ['GET /api/home/binary (homeApi.binary)'],
        input: '—',
        provides: '—',
      });
      expect(found.slice(0, 1)).toEqual([
        {
          factory: 'createLoadMachine',
          exportName: 'ranksMachine',
          idLiteral: 'ranks',
          file: path.relative(path.join(SRC_DIR, '..'), path.join(dir, 'page.routes.tsx')).split(path.sep).join('/'),
          line: 8,
          calls: ['GET /api/home/ranks (homeApi.ranks)'],
          input: '<unknown, { month: string }> ({ month })',
          provides: '—',
        },
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

const labels = { eventLabel, guardLabel, actionLabel };
const where = { file: 'tests/models/flows-fresh.test.ts', exportName: 'test' };
const svgOf = (html: string, n = 0) => new JSDOM(html).window.document.querySelectorAll('svg')[n];
const box = (el: Element) => ['x', 'y', 'width', 'height'].map((a) => Number(el.getAttribute(a)));

describe('the flow site (docs/flows/*.html)', () => {
  it('opens from disk: no script, stylesheet, font or image from elsewhere', () => {
    for (const [name, html] of generated) {
      if (!name.endsWith('.html')) continue;
      expect(html, name).not.toMatch(/<script|<link|@import|url\(\s*['"]?(https?:)?\/\/|src="(https?:)?\/\//i);
      expect(html, name).toContain('prefers-color-scheme: dark');
    }
  });

  it('draws a machine as an SVG with its states, initial and final markers and labelled transitions', () => {
    const svg = svgOf(generated.get('ssoLogin.html')!);
    expect(svg.querySelector('title')?.textContent).toBe('State diagram: ssoLogin');
    expect(svg.querySelector('desc')?.textContent).toMatch(/^6 states and 8 transitions\. Initial state: checking\. Final states: done, loggedIn\./);
    const states = [...svg.querySelectorAll('g.state')].map((g) => g.getAttribute('data-state'));
    expect(states.sort()).toEqual(['checking', 'connecting', 'connectionError', 'done', 'loggedIn', 'serverError']);
    expect([...svg.querySelectorAll('g.state.final')].map((g) => g.getAttribute('data-state')).sort()).toEqual(['done', 'loggedIn']);
    expect(svg.querySelector('g.state[data-state="connecting"]')!.textContent).toContain('invoke call (ssoLogin)');
    expect(svg.querySelectorAll('circle.initial')).toHaveLength(1);
    const edgeLabels = [...svg.querySelectorAll('g.label text')].map((t) => t.textContent);
    expect(edgeLabels).toEqual(expect.arrayContaining(['always [hasToken]', 'done: call', 'error: call', 'sso.retry']));
    // One line per drawn transition, one for the initial marker.
    expect(svg.querySelectorAll('polyline.edge')).toHaveLength(edgeLabels.length + 1);
  });

  it('draws nested states inside the state that holds them, with delays labelled', () => {
    const svg = svgOf(generated.get('session.html')!);
    const outer = svg.querySelector('g.state.compound[data-state="unauthenticated"] > rect')!;
    const inner = svg.querySelector('g.state[data-state="unauthenticated.login"] > rect')!;
    const [ox, oy, ow, oh] = box(outer);
    const [ix, iy, iw, ih] = box(inner);
    expect(ix).toBeGreaterThan(ox);
    expect(iy).toBeGreaterThan(oy);
    expect(ix + iw).toBeLessThan(ox + ow);
    expect(iy + ih).toBeLessThan(oy + oh);
    const labelsDrawn = [...svg.querySelectorAll('g.label text')].map((t) => t.textContent);
    expect(labelsDrawn).toContain('error: boot [errorIsConnection]');
    const resource = generated.get('createResource.html') ?? '';
    const all = [...generated].filter(([n]) => n.endsWith('.html')).map(([, h]) => h).join('');
    expect(all + resource).toMatch(/<text[^>]*>after [^<]+<\/text>/);
  });

  it('lists for every transition the path tests that take it, and the coverage per machine', () => {
    const doc = new JSDOM(generated.get('ssoLogin.html')!).window.document;
    expect(doc.body.textContent).toContain('coverage states 6/6 (100 %), transitions 8/8 (100 %)');
    const row = doc.querySelector('tr[data-transition="connecting xstate.done.actor.call #0"]')!;
    const links = [...row.querySelectorAll('a')].map((a) => a.getAttribute('href')!.slice(1));
    expect(links.length).toBeGreaterThan(0);
    for (const id of links) expect(doc.getElementById(id)?.textContent, id).toMatch(/^ssoLogin machine paths › #\d+ .*done:call/);
  });

  it('lists every page on the index, grouped by area', () => {
    const index = new JSDOM(generated.get(SITE_INDEX)!).window.document;
    const hrefs = new Set([...index.querySelectorAll('tr[data-machine] a')].map((a) => a.getAttribute('href')!.split('#')[0]));
    const pages = [...generated.keys()].filter((n) => n.endsWith('.html') && n !== SITE_INDEX);
    expect([...hrefs].sort()).toEqual(pages.sort());
    expect(index.querySelector('#area-account')?.nextElementSibling?.textContent).toContain('passwordChange');
  });
});

describe('what changed between two versions', () => {
  const v1 = setup({ guards: { ok: () => true } }).createMachine({
    id: 'order',
    initial: 'editing',
    states: { editing: { on: { submit: 'sending', cancel: 'cancelled' } }, sending: { on: { 'x.done': 'done' } }, cancelled: { type: 'final' }, done: { type: 'final' } },
  });
  const v2 = setup({ guards: { ok: () => true } }).createMachine({
    id: 'order',
    initial: 'editing',
    states: {
      editing: { on: { submit: { target: 'confirming', guard: 'ok' }, cancel: 'editing' } },
      confirming: { on: { confirm: 'sending' } },
      sending: { on: { 'x.done': 'done' } },
      done: { type: 'final' },
    },
  });
  const extra = setup({}).createMachine({ id: 'extra', initial: 'a', states: { a: {} } });

  it('reports states and transitions added, removed and changed, per machine', () => {
    const before = [machineJson(v1, where, labels)];
    const after = [machineJson(v2, where, labels), machineJson(extra, where, labels)];
    const changes = diffMachines(before, after);
    expect(changes.map((c) => [c.machine, c.status])).toEqual([
      ['extra', 'added'],
      ['order', 'changed'],
    ]);
    const order = changes[1];
    expect(order.states).toEqual({ added: ['confirming'], removed: ['cancelled'], changed: [] });
    expect(order.transitions.added).toEqual(['editing: submit [ok] → confirming', 'confirming: confirm → sending']);
    expect(order.transitions.removed).toEqual(['editing: submit → sending']);
    expect(order.transitions.changed).toEqual(['editing: cancel: target cancelled → editing']);
    const page = new JSDOM(renderChangesPage(changes, 'v1')).window.document;
    const section = page.querySelector('section[data-machine="order"]')!;
    expect(section.querySelector('ul.changed')!.textContent).toBe('editing: cancel: target cancelled → editing');
    expect(summarizeChanges(changes, 'v1')).toContain('order (changed): states +1 −1 ~0, transitions +2 −1 ~1');
    expect(diffMachines(after, after)).toEqual([]);
  });

  it('reads a committed version from git: HEAD has machines.json, and the current machines are those of docs/flows', () => {
    const current = JSON.parse(generated.get(MACHINES_JSON)!) as MachineJson[];
    expect(current.map((m) => m.id)).toContain('session');
    const head = execFileSync('git', ['ls-tree', 'HEAD', `docs/flows/${MACHINES_JSON}`], { encoding: 'utf8' });
    if (head) expect(machinesAt('HEAD').length).toBeGreaterThan(0);
    expect(() => machinesAt('HEAD~100000')).toThrow(/has no docs\/flows\/machines\.json/);
  });
});
