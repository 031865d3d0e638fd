import pg from 'pg';
import { createSqlStore, migrate, type SqlClient } from './sql/sql-store.js';
import { StoreUnavailableError, type Store } from './types.js';

/**
 * How long a PostgreSQL store waits, in milliseconds; 0 turns a timeout off.
 * Every store call is bounded by `connectMs` (waiting for a free connection of
 * the pool, or opening one) plus `queryMs` (the round trip), so that a frozen
 * link or a stuck server answers StoreUnavailableError instead of hanging.
 */
export interface PostgresTimeouts {
  /** Opening a connection (TCP, TLS, authentication), or waiting for a free one when all are busy. Default 3000. */
  connectMs?: number;
  /** The server cancels a statement running longer (`statement_timeout`, SQLSTATE 57014). Default 5000. */
  statementMs?: number;
  /**
   * The client gives up on a query it has no answer to (a dead link, a server
   * that cannot even cancel), and discards its connection. Default: 1000 more
   * than `statementMs` (6000), so that the server normally cancels first and the
   * connection stays usable.
   */
  queryMs?: number;
  /** The server ends a session left idle inside a transaction (`idle_in_transaction_session_timeout`), freeing its locks. Default 10000. */
  idleInTransactionMs?: number;
}

export const DEFAULT_POSTGRES_TIMEOUTS: Readonly<Required<PostgresTimeouts>> = Object.freeze({
  connectMs: 3000,
  statementMs: 5000,
  queryMs: 6000,
  idleInTransactionMs: 10_000,
});

/** The longest timer Node keeps (a larger delay would fire after 1 ms); PostgreSQL's limit too. */
const MAX_TIMEOUT_MS = 2_147_483_647;

/** The environment variables {@link postgresTimeoutsFromEnv} reads, by option. */
export const POSTGRES_TIMEOUT_ENV = Object.freeze({
  connectMs: 'GATEFLOW_PG_CONNECT_TIMEOUT_MS',
  statementMs: 'GATEFLOW_PG_STATEMENT_TIMEOUT_MS',
  queryMs: 'GATEFLOW_PG_QUERY_TIMEOUT_MS',
} as const);

/**
 * The timeouts set in the environment (GATEFLOW_PG_CONNECT_TIMEOUT_MS,
 * GATEFLOW_PG_STATEMENT_TIMEOUT_MS, GATEFLOW_PG_QUERY_TIMEOUT_MS): whole
 * milliseconds, 0 for none. Unset or empty variables are left out (the
 * defaults apply); anything else throws an Error naming the variable and value.
 */
export function postgresTimeoutsFromEnv(env: Record<string, string | undefined>): PostgresTimeouts {
  const timeouts: PostgresTimeouts = {};
  for (const [key, name] of Object.entries(POSTGRES_TIMEOUT_ENV) as [keyof typeof POSTGRES_TIMEOUT_ENV, string][]) {
    const raw = env[name];
    if (raw === undefined || raw.trim() === '') continue;
    const value = raw.trim();
    if (!/^\d+$/.test(value) || Number(value) > MAX_TIMEOUT_MS)
      throw new Error(`${name}=${JSON.stringify(raw)} is not a timeout: give whole milliseconds from 0 (no timeout) to ${MAX_TIMEOUT_MS}`);
    timeouts[key] = Number(value);
  }
  return timeouts;
}

/** The timeouts in force: the defaults where not given, checked. */
export function resolvePostgresTimeouts(timeouts: PostgresTimeouts = {}): Required<PostgresTimeouts> {
  for (const [key, value] of Object.entries(timeouts)) {
    if (value === undefined) continue;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > MAX_TIMEOUT_MS)
      throw new RangeError(`postgres store: timeouts.${key} must be whole milliseconds from 0 (no timeout) to ${MAX_TIMEOUT_MS}, not ${String(value)}`);
  }
  const statementMs = timeouts.statementMs ?? DEFAULT_POSTGRES_TIMEOUTS.statementMs;
  return {
    connectMs: timeouts.connectMs ?? DEFAULT_POSTGRES_TIMEOUTS.connectMs,
    statementMs,
    queryMs: timeouts.queryMs ?? (statementMs > 0 ? Math.min(statementMs + 1000, MAX_TIMEOUT_MS) : DEFAULT_POSTGRES_TIMEOUTS.queryMs),
    idleInTransactionMs: timeouts.idleInTransactionMs ?? DEFAULT_POSTGRES_TIMEOUTS.idleInTransactionMs,
  };
}

export interface PostgresStoreOptions {
  connectionString: string;
  /** Connections in the pool. Default 10. */
  max?: number;
  timeouts?: PostgresTimeouts;
}

/** A PostgreSQL server through `pg` (DATABASE_URL): for many processes or machines. */
export async function createPostgresStore(options: PostgresStoreOptions): Promise<Store> {
  const client = createPostgresClient(options);
  try {
    await migrate(client);
  } catch (error) {
    await client.close().catch(() => undefined);
    const message = (error as Error)?.message ?? String(error);
    const safe = scrubSecrets(message, options.connectionString);
    throw new StoreUnavailableError(
      `postgres store: cannot open ${redactUrl(options.connectionString)}: ${safe}`,
      // A cause whose message had to be cleaned would carry the secret along.
      { cause: safe === message ? error : new Error(safe) },
    );
  }
  return createSqlStore('postgres', client);
}

/** The SQL client a PostgreSQL store runs on: a `pg` pool (exported for instrumented stores). */
export function createPostgresClient(options: PostgresStoreOptions): SqlClient {
  const timeouts = resolvePostgresTimeouts(options.timeouts);
  const max = options.max ?? 10;
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max,
    // Bounds opening a connection and, in pg-pool, waiting for a free one (pool.connect and pool.query).
    connectionTimeoutMillis: timeouts.connectMs,
    // Sent as startup parameters: the server cancels (57014) or ends the session itself.
    statement_timeout: timeouts.statementMs || undefined,
    idle_in_transaction_session_timeout: timeouts.idleInTransactionMs || undefined,
    // Client-side: the query fails with 'Query read timeout' while its connection
    // still waits for an answer; it must never serve another query (see below).
    query_timeout: timeouts.queryMs || undefined,
  });
  // An idle client losing its server must not crash the process; the next query reports it.
  pool.on('error', () => {});
  // pg types rows as QueryResultRow; the store names its own row shapes.
  const rowsOf = <Row>(result: pg.QueryResult) => result as unknown as { rows: Row[] };
  // Named statements are parsed and planned once per connection, not on every turn.
  const names = new Map<string, string>();
  const named = (text: string, values: unknown[] | undefined) => {
    let name = names.get(text);
    if (name === undefined) names.set(text, (name = `gateflow_${names.size + 1}`));
    return { name, text, values: values ?? [] };
  };
  /** pg's timeout errors, said in words an operator can act on (still without SQLSTATE: an outage). */
  const explained = (error: unknown): unknown => {
    if (!(error instanceof Error) || error instanceof pg.DatabaseError) return error;
    if (error.message === 'Query read timeout')
      return new Error(`no answer from PostgreSQL within ${timeouts.queryMs} ms (query timeout); the connection was dropped`, { cause: error });
    if (error.message === 'timeout exceeded when trying to connect')
      return new Error(`no free PostgreSQL connection within ${timeouts.connectMs} ms (all ${max} busy)`, { cause: error });
    if (error.message === 'Connection terminated due to connection timeout')
      return new Error(`cannot connect to PostgreSQL within ${timeouts.connectMs} ms (connect timeout)`, { cause: error });
    return error;
  };
  return {
    // pg-pool releases the client with the error when a query fails, which
    // removes it from the pool and ends it; pg's end() destroys the socket of a
    // client whose (timed-out) query is still active. So a connection stuck on a
    // frozen link is never handed out again.
    query: async <Row>(text: string, params?: unknown[]) => {
      try {
        return rowsOf<Row>(await pool.query(named(text, params)));
      } catch (error) {
        throw explained(error);
      }
    },
    transaction: async (fn) => {
      let conn: pg.PoolClient;
      try {
        conn = await pool.connect();
      } catch (error) {
        throw explained(error);
      }
      // The server may end the session between statements (idle_in_transaction_session_timeout,
      // a shutdown): an 'error' event on a checked-out client with no listener would crash the process.
      let lost: Error | undefined;
      const onError = (error: Error) => void (lost ??= error);
      conn.on('error', onError);
      // Set when a query failed without the server answering (a timeout, a broken link): the
      // connection may still be waiting for that answer, so no ROLLBACK on it and no reuse.
      let broken: Error | undefined;
      const run = async (text: string, params?: unknown[]) => {
        try {
          return await conn.query(text, params);
        } catch (error) {
          if (!(error instanceof pg.DatabaseError)) broken ??= error instanceof Error ? error : new Error(String(error));
          throw explained(error);
        }
      };
      try {
        await run('BEGIN');
        const result = await fn({ query: async <Row>(text: string, params?: unknown[]) => rowsOf<Row>(await run(text, params)) });
        await run('COMMIT');
        return result;
      } catch (error) {
        // Rolled back by the server anyway when the connection is dropped.
        if (!broken && !lost) await run('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        conn.off('error', onError);
        // With an error, pg-pool removes the client and ends it (destroying a stuck socket).
        conn.release(broken ?? lost);
      }
    },
    close: async () => {
      if (!pool.ended && !pool.ending) await pool.end();
    },
  };
}

// ---------------------------------------------------------------------------
// Keeping the password out of messages

const HIDDEN = '***';
/** Parameters whose values are secrets: password, sslpassword, and the like. */
const SENSITIVE_KEY = /pass|pwd|secret|token/i;

const isSensitiveKey = (rawKey: string): boolean => {
  let key: string;
  try {
    key = decodeURIComponent(rawKey.replace(/\+/g, ' '));
  } catch {
    return true;
  }
  return SENSITIVE_KEY.test(key) || SENSITIVE_KEY.test(rawKey);
};

/**
 * Where the values of sensitive `key=value` parameters of a URL lie, as
 * [start, end) spans: a value runs to the next `&` (a `#` or `?` in it
 * included). Keys are found wherever they follow `?`, `&` or `;`, even inside
 * another parameter's value, so that nothing shadows a password.
 */
const sensitiveParamSpans = (text: string): [number, number][] => {
  const spans: [number, number][] = [];
  for (const m of text.matchAll(/(?<=[?&;])([^=&?;#]*)=(?=([^&]*))/g))
    if (isSensitiveKey(m[1]!)) spans.push([m.index + m[0].length, m.index + m[0].length + m[2]!.length]);
  return spans;
};

/** `text` with every span replaced by {@link HIDDEN} (overlapping or touching spans as one). */
const mask = (text: string, spans: [number, number][]): string => {
  const merged: [number, number][] = [];
  for (const [start, end] of [...spans].sort((a, b) => a[0] - b[0])) {
    const last = merged[merged.length - 1];
    if (last && start <= last[1]) last[1] = Math.max(last[1], end);
    else merged.push([start, end]);
  }
  let out = '';
  let at = 0;
  for (const [start, end] of merged) {
    out += text.slice(at, start) + HIDDEN;
    at = end;
  }
  return out + text.slice(at);
};

/**
 * Splits `user:password@` off the rest of a URL's authority. The password may
 * hold `@`, `:`, `/`, `?` or `#` (unencoded, the URL is invalid, but it must not
 * leak): userinfo runs to the last `@`, unless what precedes its first `:` is
 * not a user name (holds `/`, `?` or `#`): then the `@` is in the path or query.
 */
const splitUserinfo = (rest: string): { user: string; hasPassword: boolean; after: string } | null => {
  const at = rest.lastIndexOf('@');
  if (at === -1) return null;
  const userinfo = rest.slice(0, at);
  const colon = userinfo.indexOf(':');
  const user = colon === -1 ? userinfo : userinfo.slice(0, colon);
  if (/[/?#]/.test(user)) return null;
  return { user, hasPassword: colon !== -1, after: rest.slice(at + 1) };
};

/** The spans of `rest` (a URL after `scheme://`) that hold secrets: the userinfo password and sensitive parameters. */
const uriSecretSpans = (rest: string): [number, number][] => {
  const spans = sensitiveParamSpans(rest);
  const userinfo = splitUserinfo(rest);
  if (userinfo?.hasPassword) spans.push([userinfo.user.length + 1, rest.length - userinfo.after.length - 1]);
  return spans;
};

const redactUri = (scheme: string, rest: string): string => `${scheme}//${mask(rest, uriSecretSpans(rest))}`;

/** One `key=value` of a libpq keyword/value string: the value bare (with `\` escapes) or in single quotes. */
const KEY_VALUE = /(\s*)([^\s=]+)(\s*=\s*)('(?:[^'\\]|\\.)*'|(?:[^\s'\\]|\\.)*)/y;

const redactKeyValue = (text: string): string => {
  let out = '';
  KEY_VALUE.lastIndex = 0;
  while (KEY_VALUE.lastIndex < text.length) {
    if (/^\s*$/.test(text.slice(KEY_VALUE.lastIndex))) break;
    const start = KEY_VALUE.lastIndex;
    const m = KEY_VALUE.exec(text);
    // Unparsable from here on (an unterminated quote, a stray word): hide the rest.
    if (!m || m.index !== start) return `${out} ${HIDDEN}`.trimStart();
    const [, space, key, equals, value] = m as unknown as [string, string, string, string, string];
    out += `${space}${key}${equals}${isSensitiveKey(key) ? HIDDEN : value}`;
  }
  return out;
};

/**
 * A connection string with its secrets hidden, for messages: the password of a
 * URL's userinfo (whatever it holds), `password`/`sslpassword` parameters (any
 * case) of a URL or a libpq `key=value` string (quoted or not). Something that
 * parses as neither is hidden but for a host after its last `@`.
 */
export function redactUrl(url: string): string {
  const uri = /^([A-Za-z][A-Za-z0-9+.-]*:)\/\/(.*)$/s.exec(url);
  if (uri) return redactUri(uri[1]!, uri[2]!);
  if (/^\s*[A-Za-z_][A-Za-z0-9_]*\s*=/.test(url)) return redactKeyValue(url);
  // A bare host name or a socket directory (with a database name) has nothing to hide.
  if (/^[\w.\-/]+( [\w.-]+)?$/.test(url)) return url;
  const at = url.lastIndexOf('@');
  const after = at === -1 ? '' : url.slice(at + 1);
  if (/^[\w.\-[\]:]+(\/[\w.-]*)?$/.test(after)) return `${HIDDEN}@${after}`;
  return HIDDEN;
}

/** The secrets a connection string carries, raw and decoded. */
function secretsOf(connectionString: string): string[] {
  const found = new Set<string>();
  const add = (value: string) => {
    for (const v of [value, safeDecode(value), safeDecode(value.replace(/\+/g, ' ')), value.replace(/^'(.*)'$/s, '$1').replace(/\\(.)/g, '$1')])
      if (v !== undefined) found.add(v);
  };
  const uri = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/(.*)$/s.exec(connectionString);
  if (uri) for (const [start, end] of uriSecretSpans(uri[1]!)) add(uri[1]!.slice(start, end));
  for (const m of connectionString.matchAll(/([^\s=?&;]+)\s*=\s*('(?:[^'\\]|\\.)*'|[^\s&]*)/g)) if (isSensitiveKey(m[1]!)) add(m[2]!);
  return [...found];
}

const safeDecode = (value: string): string | undefined => {
  try {
    return decodeURIComponent(value);
  } catch {
    return undefined;
  }
};

/**
 * `message` with every secret of `connectionString` in it replaced: a driver
 * message echoing part of the string must not leak the password. Secrets
 * shorter than 4 characters are left alone (they would mangle any message).
 */
export function scrubSecrets(message: string, connectionString: string): string {
  let out = message;
  for (const secret of secretsOf(connectionString).sort((a, b) => b.length - a.length))
    if (secret.length >= 4) out = out.split(secret).join(HIDDEN);
  return out;
}
