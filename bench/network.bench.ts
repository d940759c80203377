/**
 * Network figures in Chromium: genealogy first paint and expansion with 10 000 nodes loaded, frame times
 * while panning 5 000 nodes, and the tabular tree with 50 000 rows.
 *
 * The seeded demo downline is a few hundred members, so the tree answers are generated in the bench
 * (served to the page with page.route in place of the server's answer, same schema); each figure says so.
 * Paint timings come from the 'genealogy:paint' marks the tree canvas puts on the performance timeline;
 * "data arrived" is the responseEnd of the answer's resource timing.
 */
import type { Browser, Page } from 'playwright-core';
import { answerNetworkCall, newPage, openGenealogy, signIn as signInAs, type RunningServer } from '../tests/e2e/support/harness';
import { tableNode, treeNode } from '../tests/support/network-fixtures';
import type { TreeNode } from '../src/schemas/network.schema';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length ? (s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2) : NaN;
};
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((s.length - 1) * p))];
};
const ms = (n: number) => `${n.toFixed(1)} ms`;

/** A binary tree answer: `count` members below the root, breadth first, all levels known. */
function binaryAnswer(count: number, rootId = 1, rootLevel = 0) {
  const nodes: TreeNode[] = [];
  const node = (id: number, parent: number | null, level: number, slot: number | null) =>
    treeNode(id, parent, {
      position: slot === null ? null : slot === 0 ? 'L' : 'R',
      slot,
      status: id % 7 ? 1 : 0,
      username: `member${id}`,
      rank_id: 1,
      level,
    });
  nodes.push(node(rootId, null, rootLevel, null));
  const depthOf = new Map<number, number>([[rootId, 0]]);
  for (let i = 1; i <= count; i++) {
    const id = rootId + i;
    const parentIndex = Math.floor((i - 1) / 2);
    const parent = nodes[parentIndex] as { id: number; child_count: number };
    const d = depthOf.get(parent.id)! + 1;
    depthOf.set(id, d);
    parent.child_count++;
    nodes.push(node(id, parent.id, rootLevel + d, (i - 1) % 2));
  }
  // Leaves of the last level have two children on the server (expandable here).
  const maxDepth = Math.max(...depthOf.values());
  for (const n of nodes as Array<{ id: number; child_count: number }>) if (depthOf.get(n.id) === maxDepth) n.child_count = 2;
  return {
    data: {
      affiliates: nodes,
      genealogy: null,
      search_valid: false,
      signup_from_tree: true,
      parent_username: null,
      max_levels: maxDepth,
      max_width: 2,
      root_affiliate_id: rootId,
      compensation_plan: 'binary',
    },
  };
}

async function signIn(browser: Browser, server: RunningServer): Promise<{ page: Page; close: () => Promise<void> }> {
  const { context, page } = await newPage(browser, server, { width: 1280, height: 900 });
  // The bench runs under tsx, whose transform names functions with a helper the page does not have.
  await page.addInitScript('window.__name = (f) => f;');
  await signInAs(page);
  return { page, close: () => context.close() };
}

/**
 * Time from the answer's responseEnd to the end of the first paint after it that draws its data: with `grown`,
 * the first paint with more members laid out than the last paint before the answer (an expansion), so that a
 * repaint for something else (focus, hover, a busy mark) is not taken for it.
 */
function paintAfter(page: Page, urlPart: string, grown = false) {
  return page.evaluate(
    ({ part, grown }) => {
      const res = performance.getEntriesByType('resource').filter((e) => e.name.includes(part)).at(-1) as PerformanceResourceTiming | undefined;
      if (!res) return NaN;
      const paints = performance.getEntriesByName('genealogy:paint') as PerformanceMark[];
      const nodes = (m: PerformanceMark) => (m.detail as { nodes: number }).nodes;
      const before = paints.filter((m) => m.startTime < res.responseEnd).at(-1);
      const paint = paints.find((m) => m.startTime >= res.responseEnd && (!grown || !before || nodes(m) > nodes(before)));
      return paint ? paint.startTime + (paint.detail as { ms: number }).ms - res.responseEnd : NaN;
    },
    { part: urlPart, grown },
  );
}

async function genealogyRun(browser: Browser, server: RunningServer, nodes: number) {
  const { page, close } = await signIn(browser, server);
  const root = JSON.stringify(binaryAnswer(nodes));
  await answerNetworkCall(page, 'genealogy', () => root);
  // Expansion: 31 members below the node asked for.
  await page.route(/\/api\/network\/genealogy\/(\d+)/, (route) => {
    const id = Number(/genealogy\/(\d+)/.exec(route.request().url())![1]);
    const a = binaryAnswer(30, id, 0);
    (a.data.affiliates as Array<{ id: number; parent_id: number | null; username: string }>).forEach((n, i) => {
      if (i > 0) {
        n.id = 1_000_000 + id * 64 + i;
        n.username = `deep${n.id}`;
      }
    });
    // Re-link children to the renumbered ids (breadth-first parents).
    const list = a.data.affiliates as Array<{ id: number; parent_id: number | null }>;
    for (let i = 1; i < list.length; i++) list[i].parent_id = list[Math.floor((i - 1) / 2)].id;
    route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(a) });
  });
  const tree = await openGenealogy(page);
  const first = await paintAfter(page, '/api/network/genealogy?');

  // Expand a member of the last level: walk down with the keyboard to it.
  await tree.focus();
  for (let i = 0; i < 40; i++) {
    const t = (await page.locator('[data-focus-description]').textContent()) ?? '';
    if (t.includes('press Enter to expand')) break;
    await tree.press('ArrowDown');
  }
  const answer = page.waitForResponse((r) => /\/api\/network\/genealogy\/\d+/.test(r.url()));
  await tree.press('Enter');
  await answer;
  await page.waitForFunction(() => (document.querySelector('[data-focus-description]')?.textContent ?? '').includes('Expanded.'));
  await page.waitForTimeout(50);
  const expand = await paintAfter(page, '/api/network/genealogy/', true);
  await close();
  return { first, expand };
}

async function panRun(browser: Browser, server: RunningServer, nodes: number) {
  const { page, close } = await signIn(browser, server);
  const body = JSON.stringify(binaryAnswer(nodes));
  await answerNetworkCall(page, 'genealogy', () => body);
  const tree = await openGenealogy(page);
  // Fit the whole tree on screen (every one of the 5 000 cards is in the viewport: the worst case for a
  // frame), then pan by dragging.
  await tree.focus();
  await tree.press('0');
  const box = (await tree.boundingBox())!;
  await page.evaluate(() => performance.clearMarks('genealogy:paint'));
  const frames = await page.evaluate(() => {
    const out: number[] = [];
    let last = performance.now();
    let on = true;
    const tick = (t: number) => {
      out.push(t - last);
      last = t;
      if (on) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
    (window as unknown as { __stopFrames: () => number[] }).__stopFrames = () => {
      on = false;
      return out;
    };
    return true;
  });
  void frames;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  for (let i = 0; i < 120; i++) await page.mouse.move(box.x + box.width / 2 + Math.sin(i / 10) * 60, box.y + box.height / 2 + Math.cos(i / 10) * 40);
  await page.mouse.up();
  const intervals = await page.evaluate(() => (window as unknown as { __stopFrames: () => number[] }).__stopFrames());
  const paints = await page.evaluate(() =>
    performance.getEntriesByName('genealogy:paint').map((m) => (m as PerformanceMark).detail as { ms: number; drawn: number }),
  );
  await close();
  return { paintMs: paints.map((p) => p.ms), drawn: paints.map((p) => p.drawn), intervals: intervals.slice(2) };
}

async function tabularRun(browser: Browser, server: RunningServer, rows: number) {
  const { page, close } = await signIn(browser, server);
  const child = (id: number) => ({
    ...tableNode(id, 1, { username: `row${id}`, first_name: `Row${id}`, level: 1, total_earnings: '10' }),
    children: [],
  });
  const body = JSON.stringify({
    data: {
      genealogy: { ...child(1), parent_id: null, level: 0, child_count: rows, downlines_count: rows, children: Array.from({ length: rows }, (_, i) => child(i + 2)) },
      search_valid: false,
      max_levels: 1,
      levels_loaded: 2,
    },
  });
  await answerNetworkCall(page, 'table_view', () => body);
  await page.addInitScript(() => {
    const w = window as unknown as { __rows?: number };
    new MutationObserver(() => {
      if (w.__rows === undefined && document.querySelector('[data-row="row2"]')) w.__rows = performance.now();
    }).observe(document, { childList: true, subtree: true });
  });
  await page.goto('/member/network/tabular');
  await page.locator('[data-row="row2"]').waitFor();
  const mount = await page.evaluate(() => {
    const res = performance.getEntriesByType('resource').filter((e) => e.name.includes('/api/network/table_view')).at(-1) as PerformanceResourceTiming;
    return (window as unknown as { __rows: number }).__rows - res.responseEnd;
  });
  // Fold and unfold the member's row (all 50 000 rows below it).
  const toggle = async (name: string, expectRow: boolean) =>
    page.evaluate(
      ({ name, expectRow }) =>
        new Promise<number>((resolve) => {
          const btn = [...document.querySelectorAll('button')].find((b) => b.getAttribute('aria-label') === name)!;
          const t0 = performance.now();
          const obs = new MutationObserver(() => {
            if (!!document.querySelector('[data-row="row2"]') === expectRow) {
              obs.disconnect();
              resolve(performance.now() - t0);
            }
          });
          obs.observe(document.body, { childList: true, subtree: true });
          btn.click();
        }),
      { name, expectRow },
    );
  const fold = await toggle('Fold row1', false);
  const unfold = await toggle('Expand row1', true);
  // Scroll: frame intervals while scrolling the list.
  const intervals = await page.evaluate(
    () =>
      new Promise<number[]>((resolve) => {
        const el = document.querySelector('[data-tabular-scroll]') as HTMLElement;
        const out: number[] = [];
        let last = performance.now();
        let n = 0;
        const tick = (t: number) => {
          out.push(t - last);
          last = t;
          el.scrollTop += 400;
          if (++n < 120) requestAnimationFrame(tick);
          else resolve(out.slice(2));
        };
        requestAnimationFrame(tick);
      }),
  );
  await close();
  return { mount, fold, unfold, intervals };
}

export async function run(ctx: { browser: Browser; server: RunningServer }): Promise<string[]> {
  const { browser, server } = ctx;
  const firsts: number[] = [];
  const expands: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const r = await genealogyRun(browser, server, 10_000);
    firsts.push(r.first);
    expands.push(r.expand);
  }
  const pan = await panRun(browser, server, 5_000);
  const tab: Array<Awaited<ReturnType<typeof tabularRun>>> = [];
  for (let i = 0; i < Math.max(3, Math.ceil(RUNS / 2)); i++) tab.push(await tabularRun(browser, server, 50_000));
  return [
    `genealogy (10 000 nodes, answer generated in the bench): first paint after data ${ms(median(firsts))} (target 150 ms)`,
    `genealogy (10 000 nodes loaded): expansion painted after its data ${ms(median(expands))} (target 100 ms)`,
    `genealogy pan (5 000 nodes generated in the bench, whole tree in view): paint median ${ms(median(pan.paintMs))}, p95 ${ms(pct(pan.paintMs, 0.95))}; ` +
      `frame interval median ${ms(median(pan.intervals))}, p95 ${ms(pct(pan.intervals, 0.95))} (target 16 ms); ` +
      `cards drawn per frame median ${median(pan.drawn)}`,
    `tabular (50 000 rows generated in the bench): mount after data ${ms(median(tab.map((t) => t.mount)))} (target 100 ms), ` +
      `fold ${ms(median(tab.map((t) => t.fold)))}, unfold ${ms(median(tab.map((t) => t.unfold)))} (target 50 ms), ` +
      `scroll frame interval median ${ms(median(tab.flatMap((t) => t.intervals)))}, p95 ${ms(pct(tab.flatMap((t) => t.intervals), 0.95))}`,
  ];
}
