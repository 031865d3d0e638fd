/**
 * What a person (or an HTTP answer) may be told about a model call that
 * failed: the kind of failure in plain words, never the provider's text, URLs,
 * hosts, error class names or stack (`AI_RetryError: Failed after 3 attempts.
 * Last error: connect ECONNREFUSED 10.0.0.7:8080 at ...`). The raw error is
 * kept apart (`ObjectCallFailure.detail`) for logs and traces only.
 */
export function publicModelFailure(error: unknown, reason: 'model_error' | 'invalid_output'): string {
  if (reason === 'invalid_output') return "the model's answer did not fit the expected form";
  const seen = new Set<unknown>();
  const queue: unknown[] = [error];
  let status: number | undefined;
  let kind: 'timeout' | 'unreachable' | undefined;
  // The SDK wraps errors (AI_RetryError's lastError and errors, a cause chain): look through them for what happened.
  while (queue.length > 0 && seen.size < 20) {
    const e = queue.shift();
    if (e === null || typeof e !== 'object' || seen.has(e)) continue;
    seen.add(e);
    const record = e as { name?: unknown; code?: unknown; statusCode?: unknown; message?: unknown; cause?: unknown; lastError?: unknown; errors?: unknown };
    const text = `${String(record.name ?? '')} ${String(record.code ?? '')} ${typeof record.message === 'string' ? record.message : ''}`;
    if (typeof record.statusCode === 'number') status ??= record.statusCode;
    if (/TimeoutError|timed? ?out|deadline/i.test(text)) kind ??= 'timeout';
    if (/ECONNREFUSED|ENOTFOUND|ECONNRESET|EAI_AGAIN|EHOSTUNREACH|fetch failed|socket hang up|network/i.test(text)) kind ??= 'unreachable';
    queue.push(record.cause, record.lastError, ...(Array.isArray(record.errors) ? record.errors : []));
  }
  if (kind === 'timeout') return 'the model did not answer in time';
  if (kind === 'unreachable') return 'the model service could not be reached';
  if (status !== undefined) return `the model service answered with an error (HTTP ${status})`;
  return 'the model call failed';
}
