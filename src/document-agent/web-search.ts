import { z } from 'zod';
import { deadlineSignal } from '../extract/deadline.js';
import { isWellFormed, quote } from '../workflow/untrusted-string.js';
import { WebSearchError, type WebSearchFailure } from './errors.js';

/**
 * The document agent's web search (seed 002, "If needs_web_search: true"):
 * a query in, a few sources out, which the agent adds to a document as
 * Markdown. The provider is a self-hosted SearXNG, read through its JSON API,
 * so no API key is needed and nothing leaves the operator's own instance.
 */

export interface WebSearchResult {
  title: string;
  url: string;
  snippet: string;
}

export interface WebSearch {
  /** What it is, for logs and the reply: e.g. "SearXNG at http://127.0.0.1:8888". */
  readonly name: string;
  search(query: string, options?: { signal?: AbortSignal }): Promise<WebSearchResult[]>;
}

export interface SearxngOptions {
  /** The instance's base URL (http or https), e.g. `http://127.0.0.1:8888` or `https://host/searxng`; `/search` is added to its path. */
  url: string;
  fetch?: typeof globalThis.fetch;
  /** How long a search may take, connection and body included. Default 10 000 ms. */
  timeoutMs?: number;
  /** The most results returned. Default 5. */
  maxResults?: number;
  /** SearXNG's `language` parameter, e.g. `en` or `fr-FR`; the instance's default when absent. */
  language?: string;
}

/** The longest query searched, in characters: as long as the decision's `search_query` may be. */
export const MAX_QUERY_LENGTH = 500;
/** The longest snippet kept, in characters (a sentence or two, enough to cite). */
export const MAX_SNIPPET_LENGTH = 300;
const MAX_TITLE_LENGTH = 200;
const MAX_RESULTS_LIMIT = 100;
/** The longest timer Node keeps. */
const MAX_TIMEOUT_MS = 2_147_483_647;
/** The largest answer read: SearXNG's JSON for one page is tens of kilobytes; more is not a search result. */
const MAX_BODY_BYTES = 4 * 1024 * 1024;

/**
 * SearXNG's answer, as much of it as is used: lenient about every other
 * field, since SearXNG adds some with each release. Results are checked one
 * by one, so that one odd result (no url, a number for a title) is dropped,
 * not the whole answer.
 */
const SearxngAnswerSchema = z.object({ results: z.array(z.unknown()) });
const SearxngResultSchema = z.object({
  title: z.string(),
  url: z.string(),
  content: z.string().nullish(),
});

/** A search on a SearXNG instance through its JSON API (`GET /search?q=…&format=json`). */
export function searxngSearch(options: SearxngOptions): WebSearch {
  const base = searxngBase(options.url, 'searxngSearch: url');
  const timeoutMs = wholeNumber(options.timeoutMs, 10_000, 1, MAX_TIMEOUT_MS, 'timeoutMs');
  const maxResults = wholeNumber(options.maxResults, 5, 1, MAX_RESULTS_LIMIT, 'maxResults');
  const language = options.language?.trim() || undefined;
  const doFetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const name = `SearXNG at ${base.display}`;
  const fail = (reason: WebSearchFailure, detail: string, extra?: { httpStatus?: number; cause?: unknown }) =>
    new WebSearchError(name, reason, detail, extra);

  return {
    name,
    async search(query, { signal } = {}) {
      const q = checkQuery(query);
      signal?.throwIfAborted();
      const url = new URL(base.searchUrl);
      url.searchParams.set('q', q);
      url.searchParams.set('format', 'json');
      if (language) url.searchParams.set('language', language);

      const deadline = deadlineSignal(timeoutMs, signal);
      // The caller's abort is the caller's: its reason is thrown as is. Only the deadline is a timeout.
      const rethrow = (error: unknown, what: 'unreachable' | 'invalid_response'): never => {
        if (signal?.aborted) throw signal.reason;
        if (deadline.signal.aborted) throw fail('timeout', `${name} did not answer within ${timeoutMs} ms`, { cause: error });
        if (what === 'unreachable') throw fail('unreachable', `cannot reach ${name}: ${networkDetail(error)}`, { cause: error });
        throw fail('invalid_response', `${name} broke off its answer: ${networkDetail(error)}`, { cause: error });
      };
      try {
        let response: Response;
        try {
          response = await doFetch(url, { headers: { accept: 'application/json', ...base.headers }, signal: deadline.signal });
        } catch (error) {
          return rethrow(error, 'unreachable');
        }
        if (!response.ok) {
          await response.body?.cancel().catch(() => {});
          throw fail('http', `${name} answered HTTP ${response.status}${httpHint(response.status)}`, { httpStatus: response.status });
        }
        let text: string | null;
        try {
          text = await readCapped(response, MAX_BODY_BYTES);
        } catch (error) {
          return rethrow(error, 'invalid_response');
        }
        if (text === null) throw fail('invalid_response', `${name} answered with more than ${MAX_BODY_BYTES} bytes: not search results`);
        return parseAnswer(text, maxResults, (detail) => fail('invalid_response', `${name} answered ${detail}`));
      } finally {
        deadline.clear();
      }
    },
  };
}

/**
 * SEARXNG_URL from the environment (trimmed; empty = none) as a provider, or
 * null. A malformed URL throws an Error naming SEARXNG_URL, so that a typo
 * stops the program at start instead of failing every search later.
 */
export function webSearchFromEnv(env: Record<string, string | undefined> = process.env): WebSearch | null {
  const url = env.SEARXNG_URL?.trim();
  if (!url) return null;
  searxngBase(url, 'SEARXNG_URL', (message) => new Error(message));
  return searxngSearch({ url });
}

/**
 * The results as Markdown for a document: a "### Sources (web search: <query>)"
 * heading, then one `- [title](url): snippet` line each. Titles, snippets and
 * the query come from web pages, so they are hostile: newlines become spaces
 * and Markdown's punctuation is escaped, so that no text can end the link,
 * start a new block, open a code span or inject HTML; URLs other than http(s)
 * are left out and the rest percent-encoded where Markdown would cut them.
 */
export function formatSearchResults(query: string, results: WebSearchResult[]): string {
  const lines = [`### Sources (web search: ${escapeMarkdown(oneLine(query))})`];
  for (const result of results) {
    const href = safeHref(result.url);
    if (href === null) continue;
    const title = escapeMarkdown(oneLine(result.title)) || escapeMarkdown(new URL(href).host);
    const snippet = escapeMarkdown(oneLine(result.snippet));
    lines.push(`- [${title}](${href})${snippet ? `: ${snippet}` : ''}`);
  }
  if (lines.length === 1) lines.push('- No results.');
  return lines.join('\n');
}

// ---------------------------------------------------------------------------

interface SearxngBase {
  /** The base shown in names and messages: no credentials, no trailing slash. */
  display: string;
  /** `<base>/search`, without credentials. */
  searchUrl: string;
  /** Basic authentication from the URL's userinfo (fetch refuses URLs that carry it). */
  headers: Record<string, string>;
}

/**
 * The instance's base URL, checked: http or https, no query or fragment
 * (the search adds its own). A user and password in it (a reverse proxy's
 * basic authentication) are sent as an Authorization header and never shown.
 */
function searxngBase(raw: string, label: string, error: (message: string) => Error = (m) => new RangeError(m)): SearxngBase {
  const shown = quote(raw.replace(/\/\/[^/@]*@/, '//***@'), 80);
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw error(`${label} is not a URL: ${shown}; give the SearXNG instance's address, e.g. http://127.0.0.1:8888`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw error(`${label} must be an http or https URL, not ${shown}`);
  if (url.search || url.hash) throw error(`${label} must be the SearXNG instance's base address, without ?query or #fragment: ${shown}`);
  const headers: Record<string, string> = {};
  if (url.username || url.password) {
    const credentials = `${safeDecode(url.username)}:${safeDecode(url.password)}`;
    headers.authorization = `Basic ${Buffer.from(credentials, 'utf8').toString('base64')}`;
    url.username = '';
    url.password = '';
  }
  const display = url.href.replace(/\/+$/, '');
  return { display, searchUrl: `${display}/search`, headers };
}

const safeDecode = (text: string): string => {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
};

function wholeNumber(value: number | undefined, fallback: number, min: number, max: number, option: string): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < min || value > max)
    throw new RangeError(`searxngSearch: ${option} must be a whole number from ${min} to ${max}, not ${String(value)}`);
  return value;
}

/** The query, trimmed: refused (RangeError) before any request when empty, too long or ill-formed. */
function checkQuery(query: string): string {
  if (typeof query !== 'string') throw new RangeError('web search: the query must be a string');
  const q = query.trim();
  if (q === '') throw new RangeError('web search: the query is empty');
  const length = Array.from(q).length;
  if (length > MAX_QUERY_LENGTH) throw new RangeError(`web search: the query is ${length} characters long, more than ${MAX_QUERY_LENGTH}`);
  if (!isWellFormed(q)) throw new RangeError('web search: the query holds a lone surrogate (ill-formed Unicode)');
  return q;
}

/** What SearXNG's usual refusals mean and how to fix them. */
function httpHint(status: number): string {
  if (status === 403) return ' (Forbidden), as SearXNG does when its JSON format is off: enable `json` under search.formats in settings.yml';
  if (status === 429) return ' (Too Many Requests): its limiter refused the request; set server.limiter: false in settings.yml or pass this address in limiter.toml';
  if (status === 404) return ' (Not Found): is the URL the SearXNG base address?';
  return '';
}

/** A network error's useful part: undici says "fetch failed" and puts the reason (ECONNREFUSED…) in `cause`. */
function networkDetail(error: unknown): string {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  const code = typeof cause === 'object' && cause !== null && 'code' in cause && typeof cause.code === 'string' ? cause.code : undefined;
  const message = cause instanceof Error ? cause.message : String(cause);
  return code && !message.includes(code) ? `${code}: ${message}` : message;
}

/** The body as text, or null past `max` bytes (a misconfigured URL can stream anything). */
async function readCapped(response: Response, max: number): Promise<string | null> {
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > max) {
    await response.body?.cancel().catch(() => {});
    return null;
  }
  if (!response.body) return '';
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let size = 0;
  let text = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => {});
      return null;
    }
    text += decoder.decode(value, { stream: true });
  }
  return text + decoder.decode();
}

function parseAnswer(text: string, maxResults: number, invalid: (detail: string) => WebSearchError): WebSearchResult[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw invalid(`something that is not JSON: ${quote(text.trim(), 60)}`);
  }
  const answer = SearxngAnswerSchema.safeParse(json);
  if (!answer.success) {
    const issue = answer.error.issues[0];
    const where = issue?.path.length ? issue.path.map(String).join('.') : 'the answer';
    throw invalid(`JSON that is not SearXNG's search results (${where}: ${issue?.message ?? 'unexpected shape'})`);
  }
  const results: WebSearchResult[] = [];
  const seen = new Set<string>();
  for (const raw of answer.data.results) {
    if (results.length >= maxResults) break;
    const parsed = SearxngResultSchema.safeParse(raw);
    if (!parsed.success) continue;
    const url = webUrl(parsed.data.url);
    const title = clip(oneLine(parsed.data.title), MAX_TITLE_LENGTH);
    if (url === null || title === '' || seen.has(url)) continue;
    seen.add(url);
    results.push({ title, url, snippet: clip(oneLine(parsed.data.content ?? ''), MAX_SNIPPET_LENGTH) });
  }
  return results;
}

/** The URL normalized, when it is an absolute http(s) URL; null otherwise (javascript:, data:, relative…). */
function webUrl(raw: string): string | null {
  try {
    const url = new URL(raw.trim());
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

/** Whitespace (newlines, line and paragraph separators included) and control characters as single spaces, trimmed. */
function oneLine(text: string): string {
  return text.replace(/[\s\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ').trim();
}

/** At most `max` characters, cut at a word where one is near, with an ellipsis when cut. */
function clip(text: string, max: number): string {
  const chars = Array.from(text);
  if (chars.length <= max) return text;
  let cut = chars.slice(0, max - 1).join('');
  const space = cut.lastIndexOf(' ');
  if (space >= cut.length * 0.8) cut = cut.slice(0, space);
  return `${cut.trimEnd()}…`;
}

/** Markdown's inline punctuation, backslash-escaped: link brackets, code spans, emphasis, HTML and autolinks. */
function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_~[\]()<>]/g, '\\$&');
}

/**
 * A link destination that Markdown keeps whole: an http(s) URL, normalized,
 * with the characters that would end it or be read as escapes (spaces,
 * parentheses, angle brackets, backslash, backtick, quotes) percent-encoded.
 * Only ASCII can be left to encode: URL() has encoded the rest.
 */
function safeHref(raw: string): string | null {
  const href = webUrl(raw);
  if (href === null) return null;
  return href.replace(/[ ()<>\\`"'\u0000-\u001f\u007f]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
}
