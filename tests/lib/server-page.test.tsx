/**
 * Taking over a server-rendered page (src/app/server-page.ts): when a session tree is settled, the key of
 * what a page shows, and what a visitor typed or submitted on the server's markup before React took it over.
 */
import { act, useState, type FormEvent } from 'react';
import { renderToString } from 'react-dom/server';
import { hydrateRoot, type Root } from 'react-dom/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { assign, createActor, createMachine, fromPromise, setup } from 'xstate';
import { READY_MARK, captureEarlyInput, isPending, pageKey, pageReady, replayEarlyInput, whenSettled } from '../../src/app/server-page';

describe('settled session trees and page keys', () => {
  const flow = setup({ actors: { load: fromPromise(async ({ input }: { input: Promise<string> }) => input) } }).createMachine({
    id: 'flow',
    initial: 'loading',
    context: ({ input }: { input: { answer: Promise<string> } }) => ({ answer: input.answer, text: '' }),
    states: {
      loading: {
        invoke: { src: 'load', input: ({ context }) => context.answer, onDone: { target: 'ready', actions: assign({ text: ({ event }) => event.output }) } },
      },
      ready: {},
    },
  });
  const root = (answer: Promise<string>) =>
    setup({ actors: { flow } }).createMachine({
      id: 'root',
      initial: 'on',
      states: { on: { invoke: { id: 'child', src: 'flow', input: { answer } } } },
    });

  it('is pending while a promise runs anywhere below, settled after; the key holds every machine state, the language and the scheme', async () => {
    let answer!: (s: string) => void;
    const actor = createActor(root(new Promise<string>((r) => (answer = r))));
    actor.start();
    expect(isPending(actor.getSnapshot())).toBe(true);
    const loadingKey = pageKey(actor.getSnapshot(), 'en', 'light');
    expect(JSON.parse(loadingKey)).toEqual({ state: { value: 'on', children: { child: { value: 'loading' } } }, language: 'en', colourScheme: 'light' });

    const settled = whenSettled(actor, 5000);
    answer('hello');
    await settled;
    expect(isPending(actor.getSnapshot())).toBe(false);
    const key = pageKey(actor.getSnapshot(), 'en', 'light');
    expect(JSON.parse(key).state.children.child.value).toBe('ready');
    expect(key).not.toBe(loadingKey);
    expect(pageKey(actor.getSnapshot(), 'es', 'light')).not.toBe(key);
    expect(pageKey(actor.getSnapshot(), 'en', 'dark')).not.toBe(key);
    actor.stop();
  });

  it('gives up waiting after its time limit (the page is then rendered afresh if the keys differ)', async () => {
    vi.useFakeTimers();
    try {
      const actor = createActor(root(new Promise<string>(() => {})));
      actor.start();
      const settled = whenSettled(actor, 1000);
      let done = false;
      void settled.then(() => (done = true));
      await vi.advanceTimersByTimeAsync(999);
      expect(done).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect(done).toBe(true);
      expect(isPending(actor.getSnapshot())).toBe(true);
      actor.stop();
    } finally {
      vi.useRealTimers();
    }
  });

  it('resolves at once for a tree with nothing running', async () => {
    const actor = createActor(createMachine({ initial: 'idle', states: { idle: {} } }));
    actor.start();
    await expect(whenSettled(actor, 10_000)).resolves.toBeUndefined();
  });
});

/** A small form like the sign-in page's: controlled text, radios, a select and a checkbox. */
function Form({ onSubmit }: { onSubmit: (values: Record<string, unknown>) => void }) {
  const [name, setName] = useState('');
  const [using, setUsing] = useState('username');
  const [code, setCode] = useState('+1');
  const [agree, setAgree] = useState(false);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onSubmit({ name, using, code, agree });
  };
  return (
    <form onSubmit={submit}>
      <input aria-label="name" value={name} onChange={(e) => setName(e.target.value)} />
      <input type="radio" name="using" aria-label="username" value="username" checked={using === 'username'} onChange={(e) => setUsing(e.target.value)} />
      <input type="radio" name="using" aria-label="email" value="email" checked={using === 'email'} onChange={(e) => setUsing(e.target.value)} />
      <select aria-label="code" value={code} onChange={(e) => setCode(e.target.value)}>
        <option value="+1">+1</option>
        <option value="+34">+34</option>
      </select>
      <input type="checkbox" aria-label="agree" checked={agree} onChange={(e) => setAgree(e.target.checked)} />
      <output>{`${name}|${using}|${code}|${agree}`}</output>
      <button type="submit">Go</button>
    </form>
  );
}

describe('what was done on the server markup before the app took it over', () => {
  let root: Root | null = null;
  afterEach(() => {
    act(() => root?.unmount());
    root = null;
    document.body.innerHTML = '';
    window.__uplineReady = undefined;
    window.__uplinePendingSubmit = undefined;
  });

  async function serverPage(onSubmit = vi.fn()) {
    const container = document.createElement('div');
    container.id = 'root';
    container.innerHTML = renderToString(<Form onSubmit={onSubmit} />);
    document.body.appendChild(container);
    const q = <T extends Element>(label: string) => container.querySelector<T>(`[aria-label="${label}"]`)!;
    return { container, q, onSubmit, hydrate: async () => act(async () => void (root = hydrateRoot(container, <Form onSubmit={onSubmit} />))) };
  }

  it("is handed to the app as the visitor's own input: typed text, a picked radio and option, a ticked box", async () => {
    const { container, q, hydrate } = await serverPage();
    q<HTMLInputElement>('name').value = 'demo';
    q<HTMLInputElement>('email').checked = true;
    q<HTMLSelectElement>('code').value = '+34';
    q<HTMLInputElement>('agree').checked = true;
    const early = captureEarlyInput(container);
    await hydrate();
    // React took the markup over but its state does not know yet.
    expect(container.querySelector('output')!.textContent).toBe('|username|+1|false');
    let replayed = 0;
    act(() => void (replayed = replayEarlyInput(early)));
    expect(replayed).toBe(4);
    expect(container.querySelector('output')!.textContent).toBe('demo|email|+34|true');
    expect(q<HTMLInputElement>('name').value).toBe('demo');
    expect(q<HTMLInputElement>('email').checked).toBe(true);
  });

  it('leaves untouched controls alone', async () => {
    const { container, hydrate } = await serverPage();
    const early = captureEarlyInput(container);
    await hydrate();
    expect(early).toEqual([]);
    expect(replayEarlyInput(early)).toBe(0);
    expect(container.querySelector('output')!.textContent).toBe('|username|+1|false');
  });

  it('makes a submission held back by the page head again, with what was typed, once', async () => {
    const { q, hydrate, onSubmit } = await serverPage();
    q<HTMLInputElement>('name').value = 'demo';
    const form = document.querySelector('form')!;
    window.__uplinePendingSubmit = { form, submitter: form.querySelector('button') };
    const early = captureEarlyInput(form);
    await hydrate();
    expect(onSubmit).not.toHaveBeenCalled();
    act(() => pageReady(early));
    expect(window.__uplineReady).toBe(true);
    expect(onSubmit).toHaveBeenCalledTimes(1);
    expect(onSubmit).toHaveBeenCalledWith({ name: 'demo', using: 'username', code: '+1', agree: false });
    // The moment the app took the page over is marked once, for timing what visitors wait for.
    expect(performance.getEntriesByName(READY_MARK, 'mark')).toHaveLength(1);
    act(() => pageReady(early));
    expect(onSubmit).toHaveBeenCalledTimes(1);
    expect(performance.getEntriesByName(READY_MARK, 'mark')).toHaveLength(1);
  });
});
