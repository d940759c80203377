/**
 * The sign-in page rendered by the server (src/entry-server.tsx) and taken over by the app in the browser.
 *
 * The server runs the same session machine to the point where nothing is pending any more (boot answered,
 * sign-in fields loaded), renders that state, and marks the page with the state's key. The app boots as
 * always and, once it has settled too, hydrates the server's markup when it reached the same key, or
 * renders afresh over it when it did not (another language, a saved flow state, a stored token, a failed
 * call): the server's page is only ever a head start, never a different answer.
 */
import type { AnyActorRef } from 'xstate';

/** The one route the server renders. */
export const SERVER_RENDERED_PATH = '/login';

/** Attribute on #root holding the key of the state the server rendered. */
export const SERVER_KEY_ATTRIBUTE = 'data-server-key';

/** Attributes on <html> of a server-rendered page: the language and colour scheme it was rendered in. */
export const SERVER_LANGUAGE_ATTRIBUTE = 'data-server-language';
export const SERVER_SCHEME_ATTRIBUTE = 'data-server-scheme';
/** Set on <html> by the page head when this browser will not settle on the server's markup (hidden then). */
export const SERVER_OFF_ATTRIBUTE = 'data-server-off';
/**
 * Set on <html> of the server-rendered page (server/page-render.ts, with the rule it applies): its text is drawn
 * in the system fonts (FONT_FALLBACK) and the web fonts are not asked for yet, so that on a slow link they do not
 * share it with the app's scripts (some 100 KB of fonts against 150 KB of scripts). The app takes it off once it
 * is in control of the page (src/main.tsx): the fonts load then and the text takes them when they come
 * (font-display: swap), as it did before.
 */
export const FONTS_LATER_ATTRIBUTE = 'data-fonts-later';
/** The fonts the app's text falls back on (after Ubuntu), and is drawn in while FONTS_LATER_ATTRIBUTE is set. */
export const FONT_FALLBACK = 'system-ui, -apple-system, "Segoe UI", Roboto, Helvetica, Arial, sans-serif';
/** The id of the JSON element holding what the page brings along (PageData of src/api/early.ts). */
export const PAGE_DATA_ID = 'upline-page';

interface SnapshotLike {
  status?: string;
  value?: unknown;
  children?: Record<string, AnyActorRef | undefined>;
}

/** A flow's state tree: its value and, for each child machine, its state tree (promises and callbacks are left out). */
function stateTree(snapshot: SnapshotLike): unknown {
  const children: Record<string, unknown> = {};
  for (const [id, child] of Object.entries(snapshot.children ?? {})) {
    const s = child?.getSnapshot() as SnapshotLike | undefined;
    if (s && s.value !== undefined) children[id] = stateTree(s);
  }
  return Object.keys(children).length ? { value: snapshot.value, children } : { value: snapshot.value };
}

/**
 * True while some actor below is still working: a running promise or callback actor (a call in flight, a
 * timer), or a machine with one. A settled tree only changes on an event from outside (the member, a route
 * change).
 */
export function isPending(snapshot: SnapshotLike): boolean {
  for (const child of Object.values(snapshot.children ?? {})) {
    const s = child?.getSnapshot() as SnapshotLike | undefined;
    if (!s || s.status !== 'active') continue;
    if (s.value === undefined) return true;
    if (isPending(s)) return true;
  }
  return false;
}

/** What a rendered page depends on besides the data: the session's state tree, the language, the colour scheme. */
export function pageKey(snapshot: SnapshotLike, language: string, colourScheme: string): string {
  return JSON.stringify({ state: stateTree(snapshot), language, colourScheme });
}

/** Resolves once the actor's tree is settled (see isPending), or after `timeoutMs`. */
export function whenSettled(actor: AnyActorRef, timeoutMs: number): Promise<void> {
  return new Promise((resolve) => {
    let done = false;
    let sub: { unsubscribe(): void } | null = null;
    const finish = () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      sub?.unsubscribe();
      resolve();
    };
    const timer = setTimeout(finish, timeoutMs);
    const check = () => {
      if (!isPending(actor.getSnapshot() as SnapshotLike)) finish();
    };
    // Children start and settle without the root emitting: look again on every snapshot of any actor.
    const root = actor.subscribe(check);
    const all = actor.system.inspect((e) => {
      if (e.type === '@xstate.snapshot') queueMicrotask(check);
    });
    sub = {
      unsubscribe() {
        root.unsubscribe();
        all.unsubscribe();
      },
    };
    if (done) sub.unsubscribe();
    else check();
  });
}

declare global {
  interface Window {
    /** Set once the app handles the page; until then the page head keeps form submissions back. */
    __uplineReady?: boolean;
    /** A submission made before that (server-rendered page), made again by pageReady. */
    __uplinePendingSubmit?: { form: EventTarget | null; submitter: Element | null };
  }
}

/** Sets a form control's value the way typing does: React's value tracker sees the change the event reports. */
function replayValue(el: HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement, value: string): void {
  const proto = Object.getPrototypeOf(el) as object;
  const nativeSet = Object.getOwnPropertyDescriptor(proto, 'value')?.set;
  if (!nativeSet) return;
  if (!(el instanceof HTMLSelectElement)) el.value = value === '' ? ' ' : ''; // through React's tracker: it now remembers another value
  nativeSet.call(el, value); // past the tracker: the control shows what was typed
  el.dispatchEvent(new Event(el instanceof HTMLSelectElement ? 'change' : 'input', { bubbles: true }));
}

type Control = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;

/** A control the visitor changed on the server's markup, with what they left in it. */
export interface EarlyInput {
  el: Control;
  value?: string;
  checked?: boolean;
}

/**
 * What a visitor typed, picked or ticked on the server's markup, read before React takes the markup over
 * (the markup's own attributes tell what the server rendered; React may reset some controls while it
 * takes over, and its state would not know of the rest).
 */
export function captureEarlyInput(container: ParentNode): EarlyInput[] {
  const out: EarlyInput[] = [];
  for (const el of container.querySelectorAll<Control>('input, textarea, select')) {
    if (el instanceof HTMLInputElement && (el.type === 'checkbox' || el.type === 'radio')) {
      const rendered = el.hasAttribute('checked');
      if (el.checked !== rendered && (el.type === 'checkbox' || el.checked)) out.push({ el, checked: el.checked });
    } else if (el instanceof HTMLSelectElement) {
      const rendered = ([...el.options].find((o) => o.hasAttribute('selected')) ?? el.options[0])?.value ?? '';
      if (el.value !== rendered) out.push({ el, value: el.value });
    } else {
      const rendered = el instanceof HTMLTextAreaElement ? el.defaultValue : (el.getAttribute('value') ?? '');
      if (el.value !== rendered) out.push({ el, value: el.value });
    }
  }
  return out;
}

/**
 * Hands what was captured to the app once it has taken the markup over, as the visitor's own input: the
 * flows get it (and the next render keeps it). Answers how many controls were replayed.
 */
export function replayEarlyInput(early: readonly EarlyInput[]): number {
  let replayed = 0;
  for (const { el, value, checked } of early) {
    if (!el.isConnected) continue;
    if (checked !== undefined && el instanceof HTMLInputElement) {
      el.checked = !checked; // through React's tracker
      el.click(); // the click a visitor makes: back to `checked`, and React sees the change
      if (el.checked !== checked) el.checked = checked;
    } else if (value !== undefined) {
      replayValue(el, value);
    }
    replayed++;
  }
  return replayed;
}

/** The performance mark of the moment the app is in control of the page (read by the bench and by real-user timing). */
export const READY_MARK = 'upline:ready';

/**
 * The app has rendered (or taken over) the page: what was typed on the server's markup is handed to it,
 * submissions go to it from now on, and one made before is made again (with the button that made it).
 */
export function pageReady(early: readonly EarlyInput[] = []): void {
  if (window.__uplineReady) return;
  window.__uplineReady = true;
  performance.mark?.(READY_MARK);
  replayEarlyInput(early);
  const pending = window.__uplinePendingSubmit;
  window.__uplinePendingSubmit = undefined;
  const form = pending?.form;
  if (!(form instanceof HTMLFormElement) || !form.isConnected) return;
  const submitter = pending?.submitter;
  form.requestSubmit(submitter instanceof HTMLElement && form.contains(submitter) ? (submitter as HTMLButtonElement) : undefined);
}
