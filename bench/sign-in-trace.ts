/**
 * A timeline of one sign-in (not a figure): Sign in pressed → the dashboard's wallet balance on screen, as
 * bench/run.ts measures it, with a Chromium performance trace around it. Prints, in ms after the sign-in answer
 * arrived (page clock), every network request (start → end) and every main-thread task of 3 ms or more with what ran
 * in it (script evaluation, parsing, layout). Build first (`npm run build`), then `npx tsx bench/sign-in-trace.ts`;
 * TRACE_RUNS=3 (default 1) repeats it; TRACE_FILE=/tmp/sign-in.json keeps the last trace for chrome://tracing.
 */
import { writeFileSync } from 'node:fs';
import { launchBrowser, newPage, startServer, toPasswordStep } from '../tests/e2e/support/harness';
import { watchAppearance } from './support/appear';

const WALLET_FIGURE = '[data-figure="Wallet balance"] [data-value]';

interface TraceEvent {
  name: string;
  cat: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { data?: Record<string, unknown>; name?: string };
}

async function main() {
  const server = await startServer({ SEED_MEMBERS: '600', RATE_LIMIT_SCALE: '1000' });
  const browser = await launchBrowser();
  try {
    for (let run = 0; run < Number(process.env.TRACE_RUNS ?? 1); run++) {
      const { context, page } = await newPage(browser, server);
      await page.goto('/login', { waitUntil: 'networkidle' });
      const submit = await toPasswordStep(page);
      const appeared = await watchAppearance(page, WALLET_FIGURE);
      await page.evaluate(`document.addEventListener('click', (e) => { window.__pressedAt = e.timeStamp; performance.mark('pressed'); }, { capture: true, once: true })`);
      await browser.startTracing(page, {
        categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink.user_timing', 'v8.execute', 'loading', 'disabled-by-default-v8.cpu_profiler'],
      });
      await page.evaluate(`performance.mark('trace-start')`);
      await submit.click();
      const shown = await appeared();
      await page.waitForTimeout(300);
      const buffer = await browser.stopTracing();
      if (process.env.TRACE_FILE) writeFileSync(process.env.TRACE_FILE, buffer);
      const { traceEvents } = JSON.parse(buffer.toString('utf8')) as { traceEvents: TraceEvent[] };
      const entries = (await page.evaluate(`(() => {
        const marks = performance.getEntriesByType('mark').map((m) => ({ name: m.name, at: m.startTime }));
        const res = performance.getEntriesByType('resource').map((e) => ({ name: new URL(e.name).pathname, start: e.startTime, end: e.responseEnd, size: e.encodedBodySize }));
        return { marks, res, pressed: window.__pressedAt };
      })()`)) as { marks: { name: string; at: number }[]; res: { name: string; start: number; end: number; size: number }[]; pressed: number };
      const login = entries.res.filter((r) => r.name === '/api/auth/login').pop()!;
      const zero = login.end;
      // Page clock ↔ trace clock, from the trace-start mark.
      const mark = traceEvents.find((e) => e.name === 'trace-start' && e.cat.includes('blink.user_timing'));
      const markAt = entries.marks.find((m) => m.name === 'trace-start')!.at;
      const offset = mark ? mark.ts / 1000 - markAt : NaN;
      const rel = (traceTs: number) => traceTs / 1000 - offset - zero;
      console.log(`\nrun ${run + 1}: pressed ${(entries.pressed - zero).toFixed(0)}, sign-in request ${(login.start - zero).toFixed(0)} → 0 (answer), figures shown ${(shown - zero).toFixed(0)} ms`);
      console.log('network (ms after the answer):');
      for (const r of entries.res.filter((r) => r.end >= login.start).sort((a, b) => a.start - b.start))
        console.log(`  ${(r.start - zero).toFixed(0).padStart(6)} → ${(r.end - zero).toFixed(0).padStart(6)}  ${r.name}${r.size ? `  (${(r.size / 1024).toFixed(1)} KB)` : ''}`);
      // The renderer's main thread: the thread that ran the mark.
      const main = mark ? traceEvents.filter((e) => e.pid === mark.pid && e.tid === mark.tid) : [];
      const tasks = main.filter((e) => e.ph === 'X' && (e.name === 'RunTask' || e.name === 'ThreadControllerImpl::RunTask') && (e.dur ?? 0) >= 3000);
      const profileStartAt = () => {
        const p = traceEvents.find((e) => e.name === 'Profile' && e.pid === mark?.pid);
        return Number((p?.args?.data as { startTime?: number } | undefined)?.startTime ?? p?.ts ?? 0);
      };
      // The sampled JS profile of the main thread: self time by function, for the bigger tasks below.
      const nodes = new Map<number, { fn: string; url: string; line: number }>();
      const samples: { at: number; node: number }[] = [];
      for (const e of traceEvents.filter((e) => e.name === 'ProfileChunk' && e.pid === mark?.pid)) {
        const chunk = (e.args?.data as { cpuProfile?: { nodes?: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[]; samples?: number[] }; timeDeltas?: number[] } | undefined);
        for (const n of chunk?.cpuProfile?.nodes ?? []) nodes.set(n.id, { fn: n.callFrame.functionName, url: (n.callFrame.url ?? "").replace(/^.*\//, ""), line: n.callFrame.lineNumber });
        let at = samples.length ? samples[samples.length - 1].at : profileStartAt();
        const ids = chunk?.cpuProfile?.samples ?? [];
        ids.forEach((id, i) => {
          at += chunk?.timeDeltas?.[i] ?? 0;
          samples.push({ at, node: id });
        });
      }
      const selfIn = (from: number, to: number) => {
        const by = new Map<string, number>();
        for (let i = 1; i < samples.length; i++) {
          const at = samples[i].at;
          if (at < from || at >= to) continue;
          const n = nodes.get(samples[i].node);
          if (!n || n.fn === '(idle)' || n.fn === '(program)' || n.fn === '(root)') continue;
          const k = `${n.fn || '(anon)'}@${n.url}:${n.line}`;
          by.set(k, (by.get(k) ?? 0) + (at - samples[i - 1].at) / 1000);
        }
        return [...by.entries()].sort((a, b) => b[1] - a[1]).slice(0, 6).map(([k, v]) => `${k} ${v.toFixed(1)}`).join(', ');
      };
      console.log('main-thread tasks ≥ 3 ms (ms after the answer):');
      for (const t of tasks.sort((a, b) => a.ts - b.ts)) {
        const end = t.ts + (t.dur ?? 0);
        if (rel(end) < login.start - zero) continue;
        const inner = main.filter((e) => e.ph === 'X' && e.ts >= t.ts && e.ts < end && e !== t && (e.dur ?? 0) >= 1000);
        const what = new Map<string, number>();
        for (const e of inner) {
          const label =
            e.name === 'EvaluateScript' || e.name === 'v8.compileModule' || e.name === 'v8.evaluateModule'
              ? `${e.name} ${String(e.args?.data?.url ?? '').replace(/^.*\//, '')}`
              : e.name === 'FunctionCall'
                ? `FunctionCall ${String(e.args?.data?.url ?? '').replace(/^.*\//, '')}:${String(e.args?.data?.functionName ?? '')}`
                : e.name === 'TimerFire' || e.name === 'FireAnimationFrame' || e.name === 'EventDispatch' || e.name === 'ParseHTML' || e.name === 'Layout' || e.name === 'UpdateLayoutTree' || e.name === 'Paint' || e.name === 'ResourceReceivedData' || e.name === 'v8.run' || e.name === 'RunMicrotasks' || e.name === 'PrePaint' || e.name === 'Commit'
                  ? e.name
                  : null;
          if (label) what.set(label, Math.max(what.get(label) ?? 0, (e.dur ?? 0) / 1000));
        }
        const parts = [...what.entries()].sort((a, b) => b[1] - a[1]).slice(0, 5).map(([k, v]) => `${k} ${v.toFixed(0)}`);
        console.log(`  ${rel(t.ts).toFixed(0).padStart(6)} +${((t.dur ?? 0) / 1000).toFixed(0).padStart(4)}  ${parts.join('; ')}`);
        if ((t.dur ?? 0) >= 15000 && rel(t.ts) > -50) console.log(`           js: ${selfIn(t.ts, end)}`);
      }
      await context.close();
    }
  } finally {
    await browser.close();
    await server.stop();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
