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
