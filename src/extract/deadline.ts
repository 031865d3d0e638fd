/**
 * One signal that aborts at the deadline or when `outer` aborts. Not
 * `AbortSignal.any` with `AbortSignal.timeout` (what the SDK's `timeout` does):
 * on Node 20 the timeout signal inside `any()` can be garbage-collected before
 * it fires (nodejs/node#57736), and the call then waits for as long as the server.
 */
export function deadlineSignal(timeoutMs: number, outer: AbortSignal | undefined) {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new DOMException(`model call timed out after ${timeoutMs} ms`, 'TimeoutError')), timeoutMs);
  const forward = () => controller.abort(outer?.reason);
  if (outer?.aborted) forward();
  else outer?.addEventListener('abort', forward, { once: true });
  return {
    signal: controller.signal,
    clear: () => {
      clearTimeout(timer);
      outer?.removeEventListener('abort', forward);
    },
  };
}
