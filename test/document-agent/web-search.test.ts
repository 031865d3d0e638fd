/**
 * The document agent's web search (seed 002, "If needs_web_search: true")
 * against a stand-in SearXNG: a node:http server on 127.0.0.1, port 0, that
 * answers as each test scripts it. Nothing here reaches the internet.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { WebSearchError } from '../../src/document-agent/errors.js';
import { formatSearchResults, searxngSearch, webSearchFromEnv, type WebSearchResult } from '../../src/document-agent/web-search.js';
import { GateflowError } from '../../src/error/gateflow-error.js';
import { PATIENCE_MS } from '../helpers/patience.js';

interface Seen {
  method: string;
  path: string;
  params: URLSearchParams;
  headers: IncomingMessage['headers'];
}

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

let handler: Handler;
const seen: Seen[] = [];
const sockets = new Set<Socket>();
let base = '';

const server = createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://stand-in');
  seen.push({ method: req.method ?? '', path: url.pathname, params: url.searchParams, headers: req.headers });
  handler(req, res);
});
server.on('connection', (socket) => {
  sockets.add(socket);
  socket.on('close', () => sockets.delete(socket));
});

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});
beforeEach(() => {
  seen.length = 0;
  handler = (_req, res) => json(res, 200, searxngAnswer([]));
});

const json = (res: ServerResponse, status: number, body: unknown) => {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(text);
};
/** A handler that never answers (its socket is destroyed when the server closes). */
const silent: Handler = () => {};

/** An answer shaped like SearXNG's, with the fields it sends besides results. */
const searxngAnswer = (results: unknown[]) => ({
  query: 'q',
  number_of_results: 0,
  results,
  answers: [],
  corrections: [],
  infoboxes: [],
  suggestions: [],
  unresponsive_engines: [],
});
const result = (n: number, extra: Record<string, unknown> = {}) => ({
  url: `https://example.org/page-${n}`,
  title: `Page ${n}`,
  content: `About page ${n}.`,
  engine: 'duckduckgo',
  parsed_url: ['https', 'example.org', `/page-${n}`, '', '', ''],
  engines: ['duckduckgo'],
  positions: [n],
  score: 1 / n,
  category: 'general',
  ...extra,
});

/** The error a promise rejects with (fails the test when it resolves). */
async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

async function searchError(promise: Promise<unknown>): Promise<WebSearchError> {
  const error = await rejection(promise);
  expect(error).toBeInstanceOf(WebSearchError);
  return error as WebSearchError;
}

describe('searxngSearch: the request', () => {
  it('asks GET <url>/search with q, format=json and language, accepting JSON', async () => {
    const search = searxngSearch({ url: `${base}/searxng/`, language: 'fr-FR' });
    expect(search.name).toBe(`SearXNG at ${base}/searxng`);
    await search.search('  C++ & café? (best) recipes  ');
    expect(seen).toHaveLength(1);
    const [request] = seen;
    expect(request?.method).toBe('GET');
    expect(request?.path).toBe('/searxng/search');
    expect(request?.params.get('q')).toBe('C++ & café? (best) recipes');
    expect(request?.params.get('format')).toBe('json');
    expect(request?.params.get('language')).toBe('fr-FR');
    expect(request?.headers.accept).toBe('application/json');
  });

  it('adds /search to a bare origin and sends no language unless one is given', async () => {
    const search = searxngSearch({ url: base });
    expect(search.name).toBe(`SearXNG at ${base}`);
    await search.search('tides');
    expect(seen[0]?.path).toBe('/search');
    expect([...(seen[0]?.params.keys() ?? [])].sort()).toEqual(['format', 'q']);
  });

  it('sends the credentials of the URL as basic authentication and never shows them', async () => {
    const url = `http://searx:s3cr%40t@${base.slice('http://'.length)}`;
    const search = searxngSearch({ url });
    expect(search.name).toBe(`SearXNG at ${base}`);
    await search.search('tides');
    expect(seen[0]?.headers.authorization).toBe(`Basic ${Buffer.from('searx:s3cr@t').toString('base64')}`);
  });

  it('refuses an empty, blank or over-long query with a RangeError before any request', async () => {
    const search = searxngSearch({ url: base });
    for (const query of ['', '   \n\t', 'x'.repeat(501), `${'é'.repeat(250)}\uD800`]) {
      await expect(search.search(query)).rejects.toBeInstanceOf(RangeError);
    }
    await expect(search.search('x'.repeat(501))).rejects.toThrow(/501 characters long, more than 500/);
    expect(seen).toHaveLength(0);
    await search.search('x'.repeat(500));
    expect(seen).toHaveLength(1);
  });

  it('refuses options it cannot use', () => {
    expect(() => searxngSearch({ url: 'ftp://127.0.0.1/' })).toThrow(RangeError);
    expect(() => searxngSearch({ url: `${base}/?token=1` })).toThrow(/without \?query/);
    expect(() => searxngSearch({ url: base, timeoutMs: 0 })).toThrow(/timeoutMs/);
    expect(() => searxngSearch({ url: base, maxResults: 2.5 })).toThrow(/maxResults/);
  });
});

describe('searxngSearch: the results', () => {
  it('maps title, url and content to results and keeps at most maxResults (5 by default)', async () => {
    handler = (_req, res) => json(res, 200, searxngAnswer([1, 2, 3, 4, 5, 6, 7].map((n) => result(n))));
    const all = await searxngSearch({ url: base }).search('pages');
    expect(all.map((r) => r.url)).toEqual([1, 2, 3, 4, 5].map((n) => `https://example.org/page-${n}`));
    expect(all[0]).toEqual({ title: 'Page 1', url: 'https://example.org/page-1', snippet: 'About page 1.' });

    const two = await searxngSearch({ url: base, maxResults: 2 }).search('pages');
    expect(two).toEqual([
      { title: 'Page 1', url: 'https://example.org/page-1', snippet: 'About page 1.' },
      { title: 'Page 2', url: 'https://example.org/page-2', snippet: 'About page 2.' },
    ]);
  });

  it('drops results without an http(s) url or a title, and reads a missing content as an empty snippet', async () => {
    handler = (_req, res) =>
      json(
        res,
        200,
        searxngAnswer([
          result(1, { url: 'javascript:alert(1)' }),
          result(2, { url: 'data:text/html,<script>alert(1)</script>' }),
          result(3, { url: 'ftp://example.org/file' }),
          result(4, { url: '/relative/path' }),
          { title: 'no url', content: 'x' },
          result(5, { title: undefined }),
          result(6, { title: '   ' }),
          result(7, { title: 42 }),
          'not an object',
          null,
          result(8, { content: undefined }),
          result(9, { content: null, url: 'http://example.org/a b(c)' }),
          result(10, { url: 'https://example.org/page-8' }),
        ]),
      );
    const results = await searxngSearch({ url: base, maxResults: 10 }).search('mixed');
    expect(results).toEqual([
      { title: 'Page 8', url: 'https://example.org/page-8', snippet: '' },
      { title: 'Page 9', url: 'http://example.org/a%20b(c)', snippet: '' },
    ]);
  });

  it('puts snippets on one line and cuts them to about 300 characters', async () => {
    const long = `First line\nsecond\tline ${'word '.repeat(200)}`;
    handler = (_req, res) => json(res, 200, searxngAnswer([result(1, { content: long, title: 'A\r\ntitle' })]));
    const [only] = await searxngSearch({ url: base }).search('long');
    expect(only?.title).toBe('A title');
    expect(only?.snippet.startsWith('First line second line word word')).toBe(true);
    expect(only?.snippet.endsWith('…')).toBe(true);
    expect(Array.from(only?.snippet ?? '').length).toBeLessThanOrEqual(300);
    expect(Array.from(only?.snippet ?? '').length).toBeGreaterThan(250);
    expect(only?.snippet).not.toMatch(/[\n\r\t]/);
  });

  it('answers [] when SearXNG finds nothing', async () => {
    expect(await searxngSearch({ url: base }).search('nothing')).toEqual([]);
  });
});

describe('searxngSearch: failures', () => {
  it('says how to enable the JSON format when SearXNG answers 403', async () => {
    handler = (_req, res) => {
      res.writeHead(403, { 'content-type': 'text/html' });
      res.end('<h1>Forbidden</h1>');
    };
    const error = await searchError(searxngSearch({ url: base }).search('tides'));
    expect(error.reason).toBe('http');
    expect(error.httpStatus).toBe(403);
    expect(error.provider).toBe(`SearXNG at ${base}`);
    expect(error.message).toContain(`web search failed: SearXNG at ${base} answered HTTP 403`);
    expect(error.message).toContain('enable `json` under search.formats in settings.yml');
  });

  it('reports HTTP 500 as a 502 web_search_failed naming the provider and the status', async () => {
    handler = (_req, res) => json(res, 500, '<html>Internal Server Error</html>');
    const error = await searchError(searxngSearch({ url: base }).search('tides'));
    expect(error).toBeInstanceOf(GateflowError);
    expect(error).toMatchObject({ name: 'WebSearchError', code: 'web_search_failed', status: 502, reason: 'http', httpStatus: 500 });
    expect(error.message).toBe(`web search failed: SearXNG at ${base} answered HTTP 500`);
    expect(error.toJSON()).toEqual({ code: 'web_search_failed', message: error.message });
  });

  it('names the limiter when SearXNG answers 429', async () => {
    handler = (_req, res) => json(res, 429, 'Too Many Requests');
    const error = await searchError(searxngSearch({ url: base }).search('tides'));
    expect(error.httpStatus).toBe(429);
    expect(error.message).toMatch(/limiter/);
  });

  it('refuses a body that is not JSON', async () => {
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<!DOCTYPE html><html><body>results</body></html>');
    };
    const error = await searchError(searxngSearch({ url: base }).search('tides'));
    expect(error.reason).toBe('invalid_response');
    expect(error.httpStatus).toBeUndefined();
    expect(error.message).toMatch(/^web search failed: SearXNG at .* answered something that is not JSON/);
  });

  it('refuses JSON of the wrong shape', async () => {
    for (const body of [{ query: 'tides', answers: [] }, { results: 'none' }, [result(1)], null]) {
      handler = (_req, res) => json(res, 200, body);
      const error = await searchError(searxngSearch({ url: base }).search('tides'));
      expect(error.reason).toBe('invalid_response');
      expect(error.message).toMatch(/answered JSON that is not SearXNG's search results/);
    }
  });

  it('refuses an answer larger than it reads', async () => {
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = ' '.repeat(1024 * 1024);
      for (let i = 0; i < 5; i++) res.write(chunk);
      res.end('{"results":[]}');
    };
    const error = await searchError(searxngSearch({ url: base }).search('tides'));
    expect(error.reason).toBe('invalid_response');
    expect(error.message).toMatch(/more than 4194304 bytes/);
  });

  it('gives up after timeoutMs when the server never answers', async () => {
    handler = silent;
    const started = performance.now();
    const error = await searchError(searxngSearch({ url: base, timeoutMs: 200 }).search('tides'));
    expect(error.reason).toBe('timeout');
    expect(error.message).toBe(`web search failed: SearXNG at ${base} did not answer within 200 ms`);
    // Not before its time (a lower bound, which load cannot break); the server never answers, so only the deadline ends it.
    expect(performance.now() - started).toBeGreaterThanOrEqual(190);
  });

  it('times out while the body is still coming', async () => {
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"results":[');
    };
    const error = await searchError(searxngSearch({ url: base, timeoutMs: 200 }).search('tides'));
    expect(error.reason).toBe('timeout');
  });

  it('reports an unreachable server (a closed port)', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const error = await searchError(searxngSearch({ url: `http://127.0.0.1:${port}` }).search('tides'));
    expect(error.reason).toBe('unreachable');
    expect(error.message).toMatch(new RegExp(`^web search failed: cannot reach SearXNG at http://127\\.0\\.0\\.1:${port}: .*ECONNREFUSED`));
  });

  it("stops when the caller aborts, with the caller's reason", async () => {
    handler = silent;
    const controller = new AbortController();
    const reason = new Error('user left');
    // The server never answers and the deadline is far: only the caller's abort can end it, with its reason.
    const failed = rejection(searxngSearch({ url: base, timeoutMs: PATIENCE_MS }).search('tides', { signal: controller.signal }));
    // Aborted once the request is there (a fixed delay could come before it on a loaded machine).
    await expect.poll(() => seen.length).toBe(1);
    controller.abort(reason);
    expect(await failed).toBe(reason);
    expect(seen).toHaveLength(1);
  });

  it('sends nothing when the signal is already aborted', async () => {
    const error = await rejection(searxngSearch({ url: base }).search('tides', { signal: AbortSignal.abort() }));
    expect(error).toBeInstanceOf(DOMException);
    expect((error as DOMException).name).toBe('AbortError');
    expect(seen).toHaveLength(0);
  });
});

describe('webSearchFromEnv', () => {
  it('is null when SEARXNG_URL is unset, empty or blank', () => {
    expect(webSearchFromEnv({})).toBeNull();
    expect(webSearchFromEnv({ SEARXNG_URL: '' })).toBeNull();
    expect(webSearchFromEnv({ SEARXNG_URL: '  \t' })).toBeNull();
  });

  it('is a SearXNG search of the URL given, trimmed', async () => {
    handler = (_req, res) => json(res, 200, searxngAnswer([result(1)]));
    const search = webSearchFromEnv({ SEARXNG_URL: `  ${base}/  ` });
    expect(search?.name).toBe(`SearXNG at ${base}`);
    expect(await search?.search('pages')).toEqual([{ title: 'Page 1', url: 'https://example.org/page-1', snippet: 'About page 1.' }]);
    expect(seen[0]?.path).toBe('/search');
  });

  it('throws an error naming SEARXNG_URL for a malformed URL', () => {
    for (const value of ['not a url', '127.0.0.1:8888', 'ftp://127.0.0.1:8888', 'http://127.0.0.1:8888/?format=json']) {
      expect(() => webSearchFromEnv({ SEARXNG_URL: value }), value).toThrow(/^SEARXNG_URL /);
    }
  });
});

describe('formatSearchResults', () => {
  const results: WebSearchResult[] = [
    { title: 'Tide tables', url: 'https://example.org/tides', snippet: 'High water at 06:12.' },
    { title: 'Almanac', url: 'https://example.org/almanac', snippet: '' },
  ];

  it('writes a Sources heading and one link line per result', () => {
    expect(formatSearchResults('tides brest', results)).toBe(
      [
        '### Sources (web search: tides brest)',
        '- [Tide tables](https://example.org/tides): High water at 06:12.',
        '- [Almanac](https://example.org/almanac)',
      ].join('\n'),
    );
  });

  it('escapes hostile titles, snippets and queries so that they cannot break the link or the block', () => {
    const hostile: WebSearchResult = {
      title: 'Click](javascript:alert(1)) `code` <img src=x onerror=alert(1)>\n# Injected heading',
      url: 'https://example.org/a b/(x)<y>`z`',
      snippet: 'see [here](http://evil.example)\n\n- injected item\r\n```js\nalert(1)\n```',
    };
    const markdown = formatSearchResults('a)\n## b [c]', [hostile]);
    const lines = markdown.split('\n');
    expect(lines).toEqual([
      '### Sources (web search: a\\) ## b \\[c\\])',
      '- [Click\\]\\(javascript:alert\\(1\\)\\) \\`code\\` \\<img src=x onerror=alert\\(1\\)\\> # Injected heading]' +
        '(https://example.org/a%20b/%28x%29%3Cy%3E%60z%60): ' +
        'see \\[here\\]\\(http://evil.example\\) - injected item \\`\\`\\`js alert\\(1\\) \\`\\`\\`',
    ]);
    // The one link: its text ends at the first unescaped `]`, which is followed by the URL.
    const item = lines[1] ?? '';
    const unescapedClose = [...item.matchAll(/(?<!\\)\]/g)].map((m) => m.index);
    expect(unescapedClose).toHaveLength(1);
    expect(item.slice((unescapedClose[0] ?? 0) + 1)).toMatch(/^\(https:\/\/example\.org\/[^\s()<>`]*\): /);
  });

  it('leaves out results whose URL is not http(s) and says when nothing is left', () => {
    const markdown = formatSearchResults('x', [
      { title: 'bad', url: 'javascript:alert(1)', snippet: '' },
      { title: 'data', url: 'data:text/html,hi', snippet: '' },
    ]);
    expect(markdown).toBe('### Sources (web search: x)\n- No results.');
    expect(formatSearchResults('x', [])).toBe('### Sources (web search: x)\n- No results.');
  });

  it('keeps a backslash in a title or URL from escaping the link syntax', () => {
    const markdown = formatSearchResults('q', [{ title: 'ends with \\', url: 'https://example.org/?a=\\', snippet: 'tail \\' }]);
    expect(markdown.split('\n')[1]).toBe('- [ends with \\\\](https://example.org/?a=%5C): tail \\\\');
  });
});
