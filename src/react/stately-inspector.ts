import type { InspectionEvent } from 'xstate';
import { importOptional } from '../error/optional-dependency.js';

/**
 * Whether the Stately inspector is there: it is a page on stately.ai that the
 * client opens in a window, so it needs the internet (and a window it may
 * open). `unavailable` carries the sentence to show instead of a broken popup.
 */
export type InspectorState = { status: 'connecting' } | { status: 'connected' } | { status: 'unavailable'; reason: string };

export interface StatelyInspector {
  inspect(event: InspectionEvent): void;
  state(): InspectorState;
  /** Called on every change of `state()`; returns the unsubscribe function. */
  subscribe(listener: () => void): () => void;
}

/** How long the inspector window has to say it is connected before it counts as unreachable. */
export const INSPECTOR_CONNECT_TIMEOUT_MS = 10_000;

const OFFLINE = 'Inspection is off: the Stately inspector runs on stately.ai, which cannot be reached from here (no internet connection).';
const UNREACHED = `Inspection is off: the Stately inspector runs on stately.ai, which did not answer within ${INSPECTOR_CONNECT_TIMEOUT_MS / 1000} seconds (no internet connection?).`;
const NO_WINDOW = 'Inspection is off: the Stately inspector opens stately.ai in a new window, and this page may not open one (allow pop-ups).';
const NO_CLIENT = 'Inspection is off: the Stately inspector client could not be loaded.';

let shared: StatelyInspector | undefined;

/**
 * One Stately inspector client for the page, shared by every widget and made
 * on first use (it opens the hosted inspector in a window; render code that
 * runs twice, as StrictMode does, must not open it twice). Offline, it opens
 * nothing; when the window does not say it is connected in time (stately.ai
 * unreachable), it closes the window: either way `state()` says why.
 */
export function statelyInspector(): StatelyInspector {
  if (shared) return shared;
  let state: InspectorState = { status: 'connecting' };
  const listeners = new Set<() => void>();
  const set = (next: InspectorState) => {
    state = next;
    listeners.forEach((listener) => listener());
  };
  const queue: InspectionEvent[] = [];
  let forward: ((event: InspectionEvent) => void) | undefined;

  if (typeof navigator !== 'undefined' && navigator.onLine === false) set({ status: 'unavailable', reason: OFFLINE });
  else
    void importOptional('@statelyai/inspect', 'the Stately inspector', () => import('@statelyai/inspect')).then(
      ({ createBrowserInspector }) => {
        const onMessage = (event: MessageEvent) => {
          if ((event.data as { type?: unknown } | null)?.type !== '@statelyai.connected') return;
          clearTimeout(timer);
          window.removeEventListener('message', onMessage);
          set({ status: 'connected' });
        };
        window.addEventListener('message', onMessage);
        const browser = createBrowserInspector();
        const giveUp = (reason: string) => {
          clearTimeout(timer);
          window.removeEventListener('message', onMessage);
          browser.stop();
          browser.adapter.targetWindow?.close();
          forward = undefined;
          queue.length = 0;
          set({ status: 'unavailable', reason });
        };
        const timer = setTimeout(() => giveUp(UNREACHED), INSPECTOR_CONNECT_TIMEOUT_MS);
        if (!browser.adapter.targetWindow) return giveUp(NO_WINDOW);
        forward = (event) => browser.inspect.next?.(event);
        queue.splice(0).forEach(forward);
      },
      () => set({ status: 'unavailable', reason: NO_CLIENT }),
    );

  shared = {
    inspect: (event) => {
      if (forward) forward(event);
      else if (state.status === 'connecting') queue.push(event);
    },
    state: () => state,
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  return shared;
}
