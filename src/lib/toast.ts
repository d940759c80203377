/**
 * Toasts (spec §4, §9). Success and error toasts stay 5 s, can be closed and replace whatever is on
 * screen; plain toasts (info, warning) stay 2 s and cannot be closed; a loading toast stays until it
 * is updated. Timers pause while the pointer is over a toast (Mantine's default).
 * Messages arrive already translated: callers (views, the session's `notify` action) translate keys.
 */
import type { NotificationData, notifications } from '@mantine/notifications';
import type { ReactNode } from 'react';

export type ToastKind = 'success' | 'error' | 'info' | 'warning' | 'loading';

export interface ToastInput {
  kind: ToastKind;
  message: ReactNode;
  title?: ReactNode;
  /** Reuse an id to replace a toast in place. */
  id?: string;
}

export const TOAST_DURATION = { important: 5000, plain: 2000 } as const;

const COLOURS: Record<ToastKind, string | undefined> = {
  success: 'teal',
  error: 'red',
  info: undefined,
  warning: 'yellow',
  loading: undefined,
};

/** Display rules per kind, exported so the rules are visible in one place. */
export function toastRules(kind: ToastKind): Pick<NotificationData, 'autoClose' | 'allowClose' | 'withCloseButton' | 'loading'> {
  switch (kind) {
    case 'success':
    case 'error':
      return { autoClose: TOAST_DURATION.important, allowClose: true, withCloseButton: true, loading: false };
    case 'info':
    case 'warning':
      return { autoClose: TOAST_DURATION.plain, allowClose: false, withCloseButton: false, loading: false };
    case 'loading':
      return { autoClose: false, allowClose: false, withCloseButton: false, loading: true };
  }
}

let counter = 0;
function nextId(): string {
  counter += 1;
  return `toast-${Date.now().toString(36)}-${counter}`;
}

function toData({ kind, message, title, id }: ToastInput & { id: string }): NotificationData {
  return {
    id,
    message,
    title,
    color: COLOURS[kind],
    role: kind === 'error' ? 'alert' : 'status',
    'data-kind': kind,
    ...toastRules(kind),
  };
}

/**
 * The toasts' store and host (Mantine's notifications store, container and transitions) come in their own chunk
 * (src/views/components/toasts-host.tsx), fetched once a toast is wanted: pages that never show one (most first
 * visits of /login) never download it. Until the chunk has arrived, what is asked of the store waits here, in
 * order, and is handed to the store as soon as the chunk hands it over (attachToastStore): no toast is lost.
 */
type ToastStore = typeof notifications;
let store: ToastStore | null = null;
const waiting: ((s: ToastStore) => void)[] = [];

function withStore(op: (s: ToastStore) => void): void {
  if (store) op(store);
  else waiting.push(op);
}

/** Called by the toasts' chunk as it is evaluated: the store from then on, and what waited for it. */
export function attachToastStore(s: ToastStore): void {
  store = s;
  for (const op of waiting.splice(0)) op(s);
}

let hostWanted = false;
const hostListeners = new Set<() => void>();
export function requestToastHost(): void {
  if (hostWanted) return;
  hostWanted = true;
  for (const l of hostListeners) l();
}
export function isToastHostWanted(): boolean {
  return hostWanted;
}
/** The chunk could not be fetched (offline): the next toast asks for it again; what waits keeps waiting. */
export function toastHostFailed(): void {
  hostWanted = false;
  for (const l of hostListeners) l();
}
export function onToastHostWanted(listener: () => void): () => void {
  hostListeners.add(listener);
  return () => hostListeners.delete(listener);
}

/** Shows a toast and returns its id. */
export function showToast(input: ToastInput): string {
  requestToastHost();
  const id = input.id ?? nextId();
  const data = toData({ ...input, id });
  withStore((s) => {
    if (input.kind === 'success' || input.kind === 'error') s.clean();
    s.show(data);
  });
  return id;
}

/** Turns an existing toast (usually a loading one) into another kind, keeping its place. */
export function updateToast(id: string, input: Omit<ToastInput, 'id'>): void {
  const data = toData({ ...input, id });
  withStore((s) => s.update(data));
}

export function hideToast(id: string): void {
  withStore((s) => s.hide(id));
}

export function clearToasts(): void {
  withStore((s) => s.clean());
}

type Message<T> = ReactNode | ((value: T) => ReactNode);

/**
 * A loading toast that becomes success or error when the promise settles (spec §4). Resolves or
 * rejects like the given promise.
 */
export async function promiseToast<T>(
  promise: Promise<T>,
  messages: { loading: ReactNode; success: Message<T>; error: Message<unknown> },
): Promise<T> {
  const id = showToast({ kind: 'loading', message: messages.loading });
  try {
    const value = await promise;
    const message = typeof messages.success === 'function' ? messages.success(value) : messages.success;
    updateToast(id, { kind: 'success', message });
    return value;
  } catch (e) {
    const message = typeof messages.error === 'function' ? messages.error(e) : messages.error;
    updateToast(id, { kind: 'error', message });
    throw e;
  }
}
