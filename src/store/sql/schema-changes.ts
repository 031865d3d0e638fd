/**
 * The schema of the SQL stores, as versioned changes shared by PGlite and
 * PostgreSQL. Applied in order at start; each one recorded in
 * `gateflow_migrations`. Never edit a released change: add the next one.
 * ("Migration" names one thing in gateflow: a snapshot of an earlier workflow
 * version mapped onto the current one.)
 */
export interface SchemaChange {
  version: number;
  name: string;
  sql: string;
}

export const SCHEMA_CHANGES: readonly SchemaChange[] = [
  {
    version: 1,
    name: 'sessions and journal',
    sql: `
      CREATE TABLE gateflow_sessions (
        id           text PRIMARY KEY,
        flow_id      text NOT NULL,
        flow_version jsonb NOT NULL,
        snapshot     json NOT NULL,
        version      integer NOT NULL,
        owner        text,
        created_at   timestamptz NOT NULL DEFAULT now(),
        updated_at   timestamptz NOT NULL DEFAULT now()
      );
      CREATE TABLE gateflow_journal (
        -- No foreign key: rows are only ever added by the statement that moved the
        -- session's version, and the check would cost every turn a lookup.
        session_id text NOT NULL,
        seq        integer NOT NULL,
        turn_id    text,
        turn       json,
        reply      json NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (session_id, seq),
        UNIQUE (session_id, turn_id)
      );
    `,
  },
];
