/**
 * What a model provider's failure looks like from the AI SDK (a RetryError
 * over APICallErrors with the host, URL and request), and the pattern of its
 * bits that must never reach a person or an HTTP answer.
 */
import { APICallError, RetryError } from 'ai';

export const PROVIDER_SECRET_BITS = /ECONNREFUSED|10\.0\.0\.7|8080|https?:\/\/|AI_|RetryError|APICallError|\bat \S+ \(|\.ts:\d+|sk-test|internal-host/;

/** The AI SDK's error after three refused connections to a model server on a private address. */
export function providerOutage(): Error {
  const cause = Object.assign(new Error('connect ECONNREFUSED 10.0.0.7:8080'), { code: 'ECONNREFUSED' });
  const call = new APICallError({
    message: 'Cannot connect to API: connect ECONNREFUSED 10.0.0.7:8080',
    url: 'http://10.0.0.7:8080/v1/chat/completions',
    requestBodyValues: { api_key: 'sk-test-123' },
    cause,
    isRetryable: true,
  });
  return new RetryError({ message: 'Failed after 3 attempts. Last error: Cannot connect to API: connect ECONNREFUSED 10.0.0.7:8080', reason: 'maxRetriesExceeded', errors: [call, call, call] });
}
