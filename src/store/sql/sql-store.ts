import type { Snapshot } from 'xstate';
import type { ReplyEnvelope, WorkflowVersion } from '../../workflow/reply.js';
import type { Turn } from '../../workflow/turn.js';
import { ConflictError, StoreUnavailableError, type JournalEntry, type SessionRecord, type Store } from '../types.js';
import { SCHEMA_CHANGES, type SchemaChange } from './schema-changes.js';

/** The little a SQL store needs of a driver: PGlite and `pg` both fit. */
export interface SqlClient {
  query<Row>(text: string, params?: unknown[]): Promise<{ rows: Row[] }>;
  /** Runs `fn` in one transaction on one connection. */
  transaction<T>(fn: (tx: Pick<SqlClient, 'query'>) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

const UNIQUE_VIOLATION = '23505';
/**
 * SQLSTATE classes that mean the database cannot serve now: connection (08),
 * transaction rollback (40), resources (53), operator intervention such as a
 * shutdown (57), system errors (58). Errors with no SQLSTATE (a refused socket,
 * a closed PGlite) are outages too.
 */
const UNAVAILABLE_CLASSES = new Set(['08', '40', '53', '57', '58']);
/** Serializes schema upgrades when several processes start at once (any fixed number). */
const MIGRATION_LOCK = 726_147_001;

interface SessionRow {
  id: string;
  flow_id: string;
  flow_version: WorkflowVersion;
  snapshot: Snapshot<unknown>;
  version: number;
  owner: string | null;
  created_at: Date;
  updated_at: Date;
}
interface JournalRow {
  seq: number;
  turn_id: string | null;
  turn: Turn | null;
  reply: ReplyEnvelope;
  created_at: Date;
}

/**
 * Applies the schema changes not yet recorded (in the table
 * `gateflow_migrations`, named so before this was), in one transaction that
 * holds an advisory lock, so that processes starting together upgrade once. Returns
 * the versions applied.
 */
export async function upgradeSchema(client: SqlClient, changes: readonly SchemaChange[] = SCHEMA_CHANGES): Promise<number[]> {
  return client.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await tx.query(
      'CREATE TABLE IF NOT EXISTS gateflow_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())',
    );
    const { rows } = await tx.query<{ version: number }>('SELECT version FROM gateflow_migrations');
    const done = new Set(rows.map((r) => r.version));
    const applied: number[] = [];
    for (const m of changes) {
      if (done.has(m.version)) continue;
      for (const statement of m.sql.split(';').map((s) => s.trim()).filter(Boolean)) await tx.query(statement);
      await tx.query('INSERT INTO gateflow_migrations (version, name) VALUES ($1, $2)', [m.version, m.name]);
      applied.push(m.version);
    }
    return applied;
  });
}

type JournalColumns = { [K in keyof JournalRow as `j_${K}`]: JournalRow[K] | null };
const SESSION_COLUMNS = 's.id, s.flow_id, s.flow_version, s.snapshot, s.version, s.owner, s.created_at, s.updated_at';

const toSession = (r: SessionRow): SessionRecord => ({
  sessionId: r.id,
  flowId: r.flow_id,
  flowVersion: r.flow_version,
  snapshot: r.snapshot,
  version: r.version,
  owner: r.owner,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});
const toEntry = (r: JournalRow): JournalEntry => ({
  seq: r.seq,
  turnId: r.turn_id,
  turn: r.turn,
  reply: r.reply,
  createdAt: r.created_at,
});

/**
 * A store on PostgreSQL's SQL (PGlite or a server): a turn is one SELECT
 * (session and replayed turn together) and one statement that updates the
 * session if its version is unchanged and appends to the journal.
 */
export function createSqlStore(kind: string, client: SqlClient): Store {
  const guard = async <T>(what: string, fn: () => Promise<T>): Promise<T> => {
    try {
      return await fn();
    } catch (error) {
      if (error instanceof ConflictError) throw error;
      const code = (error as { code?: unknown }).code;
      if (code === UNIQUE_VIOLATION) throw new ConflictError(`${what}: ${(error as Error).message}`);
      // A statement the database refused (bad data, a bug) is not an outage: let it surface.
      // Node's socket errors (EPIPE, ECONNRESET: they carry a syscall) are outages, though EPIPE looks like a SQLSTATE.
      const sqlState = typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) && !('syscall' in (error as object));
      if (sqlState && !UNAVAILABLE_CLASSES.has(code.slice(0, 2))) throw error;
      throw new StoreUnavailableError(`${kind} store: ${what} failed: ${(error as Error).message}`, { cause: error });
    }
  };
  const json = (value: unknown) => JSON.stringify(value);

  return {
    kind,
    create: (s) =>
      guard('create session', async () => {
        await client.query(
          `WITH s AS (
             INSERT INTO gateflow_sessions (id, flow_id, flow_version, snapshot, version, owner)
             VALUES ($1, $2, $3::jsonb, $4::json, 1, $5) RETURNING id)
           INSERT INTO gateflow_journal (session_id, seq, reply) SELECT id, 1, $6::json FROM s`,
          [s.sessionId, s.flowId, json(s.flowVersion), json(s.snapshot), s.owner, json(s.reply)],
        );
      }),
    load: (sessionId, turnId) =>
      guard('load session', async () => {
        // With a turn id, the journal entry of that turn comes in the same round trip.
        const { rows } =
          turnId === undefined
            ? await client.query<SessionRow & Partial<JournalColumns>>(`SELECT ${SESSION_COLUMNS} FROM gateflow_sessions s WHERE s.id = $1`, [
                sessionId,
              ])
            : await client.query<SessionRow & Partial<JournalColumns>>(
                `SELECT ${SESSION_COLUMNS}, j.seq AS j_seq, j.turn_id AS j_turn_id, j.turn AS j_turn, j.reply AS j_reply, j.created_at AS j_created_at
                   FROM gateflow_sessions s
                   LEFT JOIN gateflow_journal j ON j.session_id = s.id AND j.turn_id = $2
                  WHERE s.id = $1`,
                [sessionId, turnId],
              );
        const row = rows[0];
        if (!row) return null;
        const replayed =
          row.j_seq !== undefined && row.j_seq !== null
            ? toEntry({ seq: row.j_seq, turn_id: row.j_turn_id!, turn: row.j_turn!, reply: row.j_reply!, created_at: row.j_created_at! })
            : null;
        return { session: toSession(row), replayed };
      }),
    commitTurn: (sessionId, expectedVersion, t) =>
      guard('commit turn', async () => {
        const { rows } = await client.query<{ seq: number }>(
          `WITH s AS (
             UPDATE gateflow_sessions
                SET snapshot = $3::json, flow_version = $4::jsonb, version = version + 1, updated_at = now()
              WHERE id = $1 AND version = $2
             RETURNING version)
           INSERT INTO gateflow_journal (session_id, seq, turn_id, turn, reply)
           SELECT $1, s.version, $5, $6::json, $7::json FROM s
           RETURNING seq`,
          [sessionId, expectedVersion, json(t.snapshot), json(t.flowVersion), t.turnId, json(t.turn), json(t.reply)],
        );
        const seq = rows[0]?.seq;
        if (seq === undefined) throw new ConflictError(`session ${sessionId} is no longer at version ${expectedVersion}`);
        return seq;
      }),
    history: (sessionId, page) =>
      guard('read journal', async () => {
        // The primary key (session_id, seq) serves both the range and the order.
        const { rows } = await client.query<JournalRow>(
          'SELECT seq, turn_id, turn, reply, created_at FROM gateflow_journal WHERE session_id = $1 AND seq > $2 ORDER BY seq LIMIT $3',
          [sessionId, page?.after ?? 0, page?.limit ?? null],
        );
        return rows.map(toEntry);
      }),
    ping: () =>
      guard('ping', async () => {
        await client.query('SELECT 1');
      }),
    close: () => client.close(),
  };
}
