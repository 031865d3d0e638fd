import type { MiddlewareHandler } from 'hono';
import { quote } from '../workflow/untrusted-string.js';
import { HttpError } from './errors.js';

/** The names a loopback server answers to unless told otherwise. */
export const LOOPBACK_HOSTS: readonly string[] = ['localhost', '127.0.0.1', '[::1]'];

/**
 * Refuses requests whose Host is not an allowed name (403 `host_not_allowed`).
 * A page on another site can point its own DNS name at 127.0.0.1 (DNS
 * rebinding) and then read this server as same-origin; its requests still
 * carry that name in Host, so checking the name stops it. `'*'` allows any.
 */
export function hostCheck(allowed: readonly string[] | '*'): MiddlewareHandler {
  if (allowed === '*') return (_c, next) => next();
  const names = new Set(allowed.map((h) => h.toLowerCase()));
  return async (c, next) => {
    // The Node adapter builds the URL from the Host header; a bare Request without one keeps its URL's host.
    const host = c.req.header('host') ?? new URL(c.req.url).host;
    const name = hostName(host);
    if (name === null || !names.has(name))
      throw new HttpError(403, 'host_not_allowed', `the Host ${quote(host)} is not one this server answers to (allowed: ${[...names].join(', ')}; see GATEFLOW_ALLOWED_HOSTS)`);
    await next();
  };
}

/** The name in a Host header, lower case, without its port: `[::1]:3000` → `[::1]`. */
function hostName(host: string): string | null {
  const match = /^(\[[0-9a-fA-F:.]+\]|[^\s:[\]/@]+)(?::\d{1,5})?$/.exec(host.trim());
  return match ? match[1]!.toLowerCase() : null;
}
