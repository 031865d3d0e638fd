import type { Snapshot } from 'xstate';
import { GateflowError } from '../../error/gateflow-error.js';
import type { InputValue } from '../../inputs/coerce.js';
import type { GateClosing, GateRecord, GateStatus } from '../../inputs/gate.js';
import type { InputSpec } from '../../inputs/spec.js';
import type { ReplyEnvelope, SessionStatus, WorkflowVersion } from '../../workflow/reply.js';
import {
  ConflictError,
  StoreUnavailableError,
  type JournalEntry,
  type JournalTurn,
  type NewSessionEvent,
  type SessionEvent,
  type SessionEventType,
  type SessionRecord,
  type SessionSummary,
  type Store,
  type StepTrace,
  LAYOUTS_PER_DRAWING,
  layoutBytes,
  MAX_LAYOUT_BYTES,
  MAX_LAYOUTS,
} from '../types.js';
import { decodeEntry, encodeEntry, isKeyframeSeq, keyframeAtOrBefore, LastEntries } from './journal-codec.js';
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
  status: SessionStatus;
  created_at: Date;
  updated_at: Date;
}
interface JournalRow {
  seq: number;
  turn_id: string | null;
  turn: JournalTurn | null;
  /** Rows written before schema change 7: the reply and trace as JSON (then `body` is null). */
  reply: ReplyEnvelope | null;
  trace: StepTrace | null;
  /** Since schema change 7: reply and trace deflated (journal-codec.ts). */
  body: Uint8Array | null;
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

const SESSION_COLUMNS = 's.id, s.flow_id, s.flow_version, s.snapshot, s.version, s.owner, s.status, s.created_at, s.updated_at';
/**
 * A session's open gates as one JSON column, so that loading a session stays
 * one round trip. Only a waiting session has any (a step that leaves a gate
 * open sets the status `waiting`): the others skip the look.
 */
const OPEN_GATES = `CASE WHEN s.status = 'waiting' THEN
                      (SELECT coalesce(json_agg(g ORDER BY g.opened_at, g.n), '[]'::json)
                         FROM gateflow_inputs g WHERE g.session_id = s.id AND g.status = 'open')
                    ELSE '[]'::json END AS open_gates`;

/** A gate row (timestamps are Dates from a column, strings inside json_agg). */
interface GateRow {
  gate_id: string;
  session_id: string;
  workflow_id: string;
  owner: string | null;
  state: string;
  name: string;
  spec: InputSpec;
  addressed_to: string | null;
  status: GateStatus;
  deadline: Date | string | null;
  opened_at: Date | string;
  closed_at: Date | string | null;
  value: InputValue | null;
  answered_by: string | null;
}
const GATE_COLUMNS = 'gate_id, session_id, workflow_id, owner, state, name, spec, addressed_to, status, deadline, opened_at, closed_at, value, answered_by';
const date = (v: Date | string) => (v instanceof Date ? v : new Date(v));
const toGate = (r: GateRow): GateRecord => ({
  gateId: r.gate_id,
  sessionId: r.session_id,
  workflowId: r.workflow_id,
  owner: r.owner,
  state: r.state,
  name: r.name,
  spec: r.spec,
  to: r.addressed_to,
  status: r.status,
  deadline: r.deadline === null ? null : date(r.deadline),
  openedAt: date(r.opened_at),
  closedAt: r.closed_at === null ? null : date(r.closed_at),
  value: r.value,
  answeredBy: r.answered_by,
});
interface EventRow {
  id: string | number;
  type: SessionEventType;
  session_id: string;
  workflow_id: string;
  owner: string | null;
  addressed_to: string | null;
  gate_id: string | null;
  data: Record<string, unknown>;
  created_at: Date;
}
const toEvent = (r: EventRow): SessionEvent => ({
  id: Number(r.id),
  type: r.type,
  sessionId: r.session_id,
  workflowId: r.workflow_id,
  owner: r.owner,
  to: r.addressed_to,
  gateId: r.gate_id,
  data: r.data,
  createdAt: r.created_at,
});

// Gates and events as json_to_recordset reads them: one parameter each, however many.
const gateRows = (gates: readonly GateRecord[]) =>
  gates.map((g) => ({
    gate_id: g.gateId,
    workflow_id: g.workflowId,
    owner: g.owner,
    state: g.state,
    name: g.name,
    spec: g.spec,
    addressed_to: g.to,
    deadline: g.deadline?.toISOString() ?? null,
    opened_at: g.openedAt.toISOString(),
  }));
const closingRows = (closed: readonly GateClosing[]) =>
  closed.map((c) => ({ gate_id: c.gateId, status: c.status, value: c.value ?? null, answered_by: c.answeredBy ?? null }));
const eventRows = (events: readonly NewSessionEvent[]) =>
  events.map((e) => ({
    type: e.type,
    session_id: e.sessionId,
    workflow_id: e.workflowId,
    owner: e.owner,
    addressed_to: e.to,
    gate_id: e.gateId,
    data: e.data,
  }));

/** What a step writes besides the session and its journal entry; each part present is one CTE and one JSON parameter. */
interface StepParts {
  opened: readonly unknown[];
  closed: readonly unknown[];
  events: readonly unknown[];
}
/**
 * The CTEs that add gates and events, run after CTE `s` (nothing happens when `s` is empty): only
 * those of the parts a step has, since a data-modifying CTE runs to its end even on an empty
 * list (an empty gate insert and gate update cost a step about 13 µs on the server). Their
 * parameters are numbered from `first` in the order opened, closed, events.
 */
function gateCtes(parts: StepParts, first: number): string[] {
  let n = first;
  const ctes: string[] = [];
  if (parts.opened.length > 0)
    ctes.push(`o AS (INSERT INTO gateflow_inputs (gate_id, session_id, workflow_id, owner, state, name, spec, addressed_to, status, deadline, opened_at)
        SELECT g.gate_id, s.id, g.workflow_id, g.owner, g.state, g.name, g.spec, g.addressed_to, 'open', g.deadline, g.opened_at
          FROM s, json_to_recordset($${n++}::json)
               AS g(gate_id text, workflow_id text, owner text, state text, name text, spec json, addressed_to text, deadline timestamptz, opened_at timestamptz))`);
  if (parts.closed.length > 0)
    ctes.push(`c AS (UPDATE gateflow_inputs i
           SET status = x.status, value = x.value, answered_by = x.answered_by, closed_at = now()
          FROM s, json_to_recordset($${n++}::json) AS x(gate_id text, status text, value json, answered_by text)
         WHERE i.gate_id = x.gate_id AND i.status = 'open')`);
  if (parts.events.length > 0)
    ctes.push(`e AS (INSERT INTO gateflow_events (type, session_id, workflow_id, owner, addressed_to, gate_id, data)
        SELECT x.type, x.session_id, x.workflow_id, x.owner, x.addressed_to, x.gate_id, x.data
          FROM s, json_to_recordset($${n++}::json)
               AS x(type text, session_id text, workflow_id text, owner text, addressed_to text, gate_id text, data json)
        RETURNING id)`);
  return ctes;
}
/** The JSON parameters of the parts present, in the order gateCtes() numbers them. */
const partParams = (parts: StepParts): string[] =>
  [parts.opened, parts.closed, parts.events].filter((rows) => rows.length > 0).map((rows) => JSON.stringify(rows));
/**
 * A statement per combination of parts, built once: the same text each time (the driver
 * prepares it once per connection by its text).
 */
function statementsByParts(build: (parts: StepParts) => string): (parts: StepParts) => string {
  const built = new Map<number, string>();
  const some = [0];
  return (parts) => {
    const key = (parts.opened.length > 0 ? 1 : 0) | (parts.closed.length > 0 ? 2 : 0) | (parts.events.length > 0 ? 4 : 0);
    let text = built.get(key);
    if (text === undefined)
      built.set(key, (text = build({ opened: key & 1 ? some : [], closed: key & 2 ? some : [], events: key & 4 ? some : [] })));
    return text;
  };
}

const toSession = (r: SessionRow): SessionRecord => ({
  sessionId: r.id,
  flowId: r.flow_id,
  flowVersion: r.flow_version,
  snapshot: r.snapshot,
  version: r.version,
  owner: r.owner,
  status: r.status,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});
/** The events stream's ids: the step of a journal row (session.stepped) takes one too, after its turn's events. */
const NEXT_EVENT_ID = "nextval('gateflow_events_id_seq')";
/** A step's announcement, read from its journal row: `event_id` places it in the stream. */
const STEPPED_EVENTS = `SELECT j.event_id AS id, 'session.stepped' AS type, j.session_id, s.flow_id AS workflow_id, s.owner,
                               NULL AS addressed_to, NULL AS gate_id, json_build_object('seq', j.seq, 'status', j.status) AS data, j.created_at
                          FROM gateflow_journal j JOIN gateflow_sessions s ON s.id = j.session_id`;

const NONE: readonly never[] = [];
/** A session's first step: the session, its opening journal entry, and the gates and events it has. */
const CREATE_STATEMENT = statementsByParts((parts) => {
  const session = `s AS (
       INSERT INTO gateflow_sessions (id, flow_id, flow_version, snapshot, version, owner, status)
       VALUES ($1, $2, $3::jsonb, $4::json, 1, $5, $7) RETURNING id)`;
  // The opening entry announces no step (no event_id): the session's own events say it started.
  return `WITH ${[session, ...gateCtes(parts, 8)].join(', ')}
          INSERT INTO gateflow_journal (session_id, seq, body, status) SELECT id, 1, $6::bytea, $7 FROM s`;
});
/**
 * A step: the session updated if its version is unchanged, its journal entry, and the gates and
 * events it has (a step that opens, closes or announces nothing is the one short statement).
 */
const STEP_STATEMENT = statementsByParts((parts) => {
  const session = `s AS (
       UPDATE gateflow_sessions
          SET snapshot = $3::json, flow_version = $4::jsonb, version = version + 1, status = $8, updated_at = now()
        WHERE id = $1 AND version = $2
       RETURNING id, version)`;
  // Reading e first gives the step its event id after the turn's events: it is announced last.
  return `WITH ${[session, ...gateCtes(parts, 9)].join(', ')}
          INSERT INTO gateflow_journal (session_id, seq, turn_id, turn, body, status, event_id)
          SELECT $1, s.version, $5, $6::json, $7::bytea, $8, ${NEXT_EVENT_ID}
            FROM s${parts.events.length > 0 ? ', (SELECT count(*) FROM e) AS announced' : ''}
          RETURNING seq`;
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
      // A conflict, or a refusal of the turn's own writes (a document's version moved): not an outage.
      if (error instanceof GateflowError) throw error;
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
  // The last entry this store wrote per session: the next one is deflated against it.
  const last = new LastEntries();

  /**
   * The journal entries after seq `after`, at most `limit`: read from the
   * keyframe at or before the first of them, each inflated with the one before.
   */
  const readEntries = async (sessionId: string, after: number, limit?: number): Promise<JournalEntry[]> => {
    const from = keyframeAtOrBefore(after + 1);
    // The primary key (session_id, seq) serves both the range and the order.
    const { rows } = await client.query<JournalRow>(
      'SELECT seq, turn_id, turn, reply, trace, body, created_at FROM gateflow_journal WHERE session_id = $1 AND seq >= $2 ORDER BY seq LIMIT $3',
      [sessionId, from, limit === undefined ? null : limit + (after + 1 - from)],
    );
    const entries: JournalEntry[] = [];
    let previous: string | null = null;
    for (const r of rows) {
      let reply: ReplyEnvelope;
      let trace: StepTrace;
      if (r.body === null) {
        ({ reply, trace } = { reply: r.reply!, trace: r.trace ?? [] });
        previous = null;
      } else {
        const decoded = decodeEntry(r.body, previous, `session ${sessionId}, journal entry ${r.seq}`);
        ({ reply, trace, text: previous } = decoded);
      }
      if (r.seq > after) entries.push({ seq: r.seq, turnId: r.turn_id, turn: r.turn, reply, trace, createdAt: r.created_at });
    }
    return entries;
  };

  return {
    kind,
    sql: { kind, query: (text, params) => client.query(text, params), transaction: (fn) => client.transaction(fn) },
    create: (s) =>
      guard('create session', async () => {
        const parts = { opened: gateRows(s.gates ?? []), closed: [], events: eventRows(s.events ?? []) };
        const entry = encodeEntry(s.reply, s.trace ?? [], null);
        const params = [s.sessionId, s.flowId, json(s.flowVersion), json(s.snapshot), s.owner, entry.body, s.reply.status];
        await client.query(CREATE_STATEMENT(parts), [...params, ...partParams(parts)]);
        last.set(s.sessionId, 1, entry.text);
      }),
    load: (sessionId, turnId) =>
      guard('load session', async () => {
        // With a turn id, the journal entry of that turn comes in the same round trip.
        type Row = SessionRow & { open_gates: GateRow[]; j_seq?: number | null };
        const { rows } =
          turnId === undefined
            ? await client.query<Row>(`SELECT ${SESSION_COLUMNS}, ${OPEN_GATES} FROM gateflow_sessions s WHERE s.id = $1`, [sessionId])
            : await client.query<Row>(
                `SELECT ${SESSION_COLUMNS}, ${OPEN_GATES},
                        j.seq AS j_seq
                   FROM gateflow_sessions s
                   LEFT JOIN gateflow_journal j ON j.session_id = s.id AND j.turn_id = $2
                  WHERE s.id = $1`,
                [sessionId, turnId],
              );
        const row = rows[0];
        if (!row) return null;
        // A turn taken already (rare: a retry): its entry is read whole, inflated from its keyframe on.
        const replayed = row.j_seq !== undefined && row.j_seq !== null ? ((await readEntries(sessionId, row.j_seq - 1, 1))[0] ?? null) : null;
        return { session: toSession(row), replayed, gates: row.open_gates.map(toGate) };
      }),
    commitTurn: (sessionId, expectedVersion, t) =>
      guard('commit turn', async () => {
        const opened = t.gates?.opened ?? NONE;
        const closed = t.gates?.closed ?? NONE;
        const stepEvents = t.events ?? NONE;
        const seq = expectedVersion + 1;
        const entry = encodeEntry(t.reply, t.trace ?? [], isKeyframeSeq(seq) ? null : last.get(sessionId, expectedVersion));
        const params = [sessionId, expectedVersion, json(t.snapshot), json(t.flowVersion), t.turnId, json(t.turn), entry.body, t.reply.status];
        const save = async (db: Pick<SqlClient, 'query'>, announced: readonly NewSessionEvent[] = []) => {
          const parts = { opened: gateRows(opened), closed: closingRows(closed), events: eventRows(announced.length === 0 ? stepEvents : [...stepEvents, ...announced]) };
          const { rows } = await db.query<{ seq: number }>(STEP_STATEMENT(parts), [...params, ...partParams(parts)]);
          if (rows[0]?.seq === undefined) throw new ConflictError(`session ${sessionId} is no longer at version ${expectedVersion}`);
        };
        const effects = t.effects;
        if (!effects) await save(client);
        else
          // The turn's own writes first, then the session: a conflict or a refused write undoes both.
          await client.transaction(async (tx) => {
            const done = await effects(tx);
            await save(tx, done?.events);
          });
        last.set(sessionId, seq, entry.text);
        return seq;
      }),
    history: (sessionId, page) => guard('read journal', () => readEntries(sessionId, page?.after ?? 0, page?.limit)),
    listSessions: (filter) =>
      guard('list sessions', async () => {
        const v = filter.visibleTo;
        const { rows } = await client.query<Omit<SessionRow, 'snapshot'> & { state: unknown; n: string | number }>(
          `SELECT id, flow_id, flow_version, snapshot -> 'value' AS state, version, owner, status, created_at, updated_at, n
             FROM gateflow_sessions
            WHERE ($1::bigint IS NULL OR n < $1)
              AND ($2::text IS NULL OR flow_id = $2)
              AND ($3::text IS NULL OR status = $3)
              AND ($4::boolean IS NOT TRUE OR owner IS NULL OR owner = $5)
            ORDER BY n DESC
            LIMIT $6`,
          [filter.after ?? null, filter.workflowId ?? null, filter.status ?? null, v !== undefined, v?.owner ?? null, filter.limit],
        );
        return rows.map(
          (r): SessionSummary => ({
            sessionId: r.id,
            flowId: r.flow_id,
            flowVersion: r.flow_version,
            state: r.state,
            status: r.status,
            version: r.version,
            owner: r.owner,
            createdAt: r.created_at,
            updatedAt: r.updated_at,
            cursor: Number(r.n),
          }),
        );
      }),
    findInput: (gateId) =>
      guard('find input', async () => {
        const { rows } = await client.query<GateRow>(`SELECT ${GATE_COLUMNS} FROM gateflow_inputs WHERE gate_id = $1`, [gateId]);
        return rows[0] ? toGate(rows[0]) : null;
      }),
    listInputs: (filter = {}) =>
      guard('list inputs', async () => {
        const v = filter.visibleTo;
        const params: unknown[] = [filter.after ?? 0, filter.limit ?? 500];
        const param = (value: unknown) => `$${params.push(value)}`;
        const where = ["status = 'open'", 'n > $1'];
        if (filter.sessionId !== undefined) where.push(`session_id = ${param(filter.sessionId)}`);
        if (filter.workflowId !== undefined) where.push(`workflow_id = ${param(filter.workflowId)}`);
        // Visible: everything on a server without auth; a person's own gates; gates addressed to a role the caller holds.
        // Written out per caller (not as one generic predicate), so that the planner can use the partial indexes on open
        // gates by owner and by role (schema change 6); in the order gates were opened (n), from a place on.
        if (v !== undefined) {
          const own = v.owner === null ? 'owner IS NULL' : `(addressed_to IS NULL AND owner = ${param(v.owner)})`;
          where.push(v.roles.length > 0 ? `(${own} OR addressed_to = ANY(${param([...v.roles])}::text[]))` : own);
        }
        const { rows } = await client.query<GateRow & { n: string | number }>(
          `SELECT ${GATE_COLUMNS}, n FROM gateflow_inputs WHERE ${where.join(' AND ')} ORDER BY n LIMIT $2`,
          params,
        );
        return rows.map((r) => ({ ...toGate(r), place: Number(r.n) }));
      }),
    claimDueInputs: (now, leaseMs, limit) =>
      guard('claim due inputs', async () => {
        const { rows } = await client.query<{ session_id: string }>(
          `WITH due AS (
             SELECT gate_id FROM gateflow_inputs
              WHERE status = 'open' AND deadline <= $1 AND (lease_until IS NULL OR lease_until <= $1)
              ORDER BY deadline
              LIMIT $3
                FOR UPDATE SKIP LOCKED)
           UPDATE gateflow_inputs i SET lease_until = $2 FROM due WHERE i.gate_id = due.gate_id
           RETURNING i.session_id`,
          [now.toISOString(), new Date(now.getTime() + leaseMs).toISOString(), limit],
        );
        return [...new Set(rows.map((r) => r.session_id))];
      }),
    nextDeadline: () =>
      guard('next deadline', async () => {
        const { rows } = await client.query<{ deadline: Date | null }>(
          "SELECT min(deadline) AS deadline FROM gateflow_inputs WHERE status = 'open' AND deadline IS NOT NULL",
        );
        const d = rows[0]?.deadline ?? null;
        return d === null ? null : date(d);
      }),
    readEvents: (after, limit) =>
      guard('read events', async () => {
        // The events written with turns, and the steps the journal holds, in the order of their ids.
        const { rows } = await client.query<EventRow>(
          `SELECT * FROM (
             (SELECT id, type, session_id, workflow_id, owner, addressed_to, gate_id, data, created_at
                FROM gateflow_events WHERE id > $1 ORDER BY id LIMIT $2)
             UNION ALL
             (${STEPPED_EVENTS} WHERE j.event_id > $1 ORDER BY j.event_id LIMIT $2)) x
           ORDER BY id LIMIT $2`,
          [after, limit],
        );
        return rows.map(toEvent);
      }),
    lastEventId: () =>
      guard('read events', async () => {
        const { rows } = await client.query<{ id: string | number | null }>(
          'SELECT greatest((SELECT max(id) FROM gateflow_events), (SELECT max(event_id) FROM gateflow_journal)) AS id',
        );
        return Number(rows[0]?.id ?? 0);
      }),
    ping: () =>
      guard('ping', async () => {
        await client.query('SELECT 1');
      }),
    layouts: {
      get: (key) =>
        guard('read a layout', async () => {
          const { rows } = await client.query<{ body: string }>(
            'SELECT body FROM gateflow_layouts WHERE drawing_id = $1 AND content_hash = $2 AND level = $3 AND code = $4',
            [key.drawingId, key.contentHash, key.level, key.code],
          );
          return rows[0]?.body ?? null;
        }),
      put: (key, body) =>
        guard('keep a layout', async () => {
          if (layoutBytes(body) > MAX_LAYOUT_BYTES) return false;
          // Stored again, a layout counts as the newest (a new n).
          await client.query(
            `INSERT INTO gateflow_layouts (drawing_id, content_hash, level, code, body) VALUES ($1, $2, $3, $4, $5)
             ON CONFLICT (drawing_id, content_hash, level, code)
             DO UPDATE SET body = excluded.body, stored_at = excluded.stored_at, n = excluded.n`,
            [key.drawingId, key.contentHash, key.level, key.code, body],
          );
          await client.query(
            `DELETE FROM gateflow_layouts WHERE n IN (
               SELECT n FROM (SELECT n, row_number() OVER (PARTITION BY drawing_id ORDER BY n DESC) AS mine,
                                        row_number() OVER (ORDER BY n DESC) AS overall
                                FROM gateflow_layouts) ranked
                WHERE mine > $1 OR overall > $2)`,
            [LAYOUTS_PER_DRAWING, MAX_LAYOUTS],
          );
          return true;
        }),
    },
    close: () => client.close(),
  };
}
