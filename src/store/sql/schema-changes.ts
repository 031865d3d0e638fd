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
  {
    version: 2,
    name: 'input gates and events',
    sql: `
      ALTER TABLE gateflow_sessions ADD COLUMN status text NOT NULL DEFAULT 'active';
      CREATE TABLE gateflow_inputs (
        gate_id     text PRIMARY KEY,
        session_id  text NOT NULL,
        workflow_id text NOT NULL,
        owner       text,
        state       text NOT NULL,
        name        text NOT NULL,
        spec        json NOT NULL,
        addressed_to text,
        status      text NOT NULL,
        deadline    timestamptz,
        opened_at   timestamptz NOT NULL,
        closed_at   timestamptz,
        value       json,
        answered_by text,
        -- Set by a process that took the gate's session to fire its deadline (see claimDueInputs).
        lease_until timestamptz,
        -- The order gates were opened in (a state's inputs open together, in the order declared).
        n           bigserial
      );
      CREATE INDEX gateflow_inputs_open ON gateflow_inputs (session_id) WHERE status = 'open';
      CREATE INDEX gateflow_inputs_due ON gateflow_inputs (deadline) WHERE status = 'open' AND deadline IS NOT NULL;
      CREATE TABLE gateflow_events (
        id           bigserial PRIMARY KEY,
        type         text NOT NULL,
        session_id   text NOT NULL,
        workflow_id  text NOT NULL,
        owner        text,
        addressed_to text,
        gate_id      text,
        data         json NOT NULL,
        created_at   timestamptz NOT NULL DEFAULT now()
      );
    `,
  },
  {
    version: 3,
    name: 'projects, documents and chats',
    // Integer identity ids, as the document agent's API shows them (src/documents).
    sql: `
      CREATE TABLE gateflow_projects (
        id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        owner       text,
        name        text NOT NULL,
        description text,
        created_at  timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX gateflow_projects_owner ON gateflow_projects (owner, id);
      CREATE TABLE gateflow_documents (
        id                   bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        project_id           bigint NOT NULL REFERENCES gateflow_projects (id),
        name                 text NOT NULL,
        standing_instruction text NOT NULL DEFAULT '',
        content              text NOT NULL DEFAULT '',
        -- Starts at 1, one more per saved change: updates name the version they read.
        version              integer NOT NULL DEFAULT 1 CHECK (version >= 1),
        created_at           timestamptz NOT NULL DEFAULT now(),
        updated_at           timestamptz NOT NULL DEFAULT now()
      );
      -- A name is unique in its project, ignoring case.
      CREATE UNIQUE INDEX gateflow_documents_name ON gateflow_documents (project_id, lower(name));
      CREATE TABLE gateflow_chats (
        id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        project_id bigint NOT NULL REFERENCES gateflow_projects (id),
        owner      text,
        -- The seq of its last message: adding one takes the next under the row's lock.
        last_seq   integer NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX gateflow_chats_project ON gateflow_chats (project_id);
      CREATE TABLE gateflow_messages (
        id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        chat_id    bigint NOT NULL REFERENCES gateflow_chats (id),
        seq        integer NOT NULL,
        role       text NOT NULL CHECK (role IN ('user', 'assistant')),
        content    text NOT NULL,
        metadata   jsonb NOT NULL DEFAULT '{}',
        created_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (chat_id, seq)
      );
    `,
  },
  {
    version: 4,
    name: 'chats as sessions',
    // Each chat is a document agent session; the document a person has open steers "add this".
    sql: `
      ALTER TABLE gateflow_chats ADD COLUMN session_id text;
      CREATE UNIQUE INDEX gateflow_chats_session ON gateflow_chats (session_id);
      ALTER TABLE gateflow_chats ADD COLUMN focus_document_id bigint REFERENCES gateflow_documents (id);
    `,
  },
  {
    version: 5,
    name: 'step traces',
    // What the machine emitted during each step (the viewer shows it per turn); null when nothing.
    sql: 'ALTER TABLE gateflow_journal ADD COLUMN trace json;',
  },
  {
    version: 6,
    name: 'open gates in opening order',
    // The inbox pages open gates by n (their opening order); without it, listing scans and sorts every open gate.
    // A caller's own gates and those of their roles: found by owner or role, not by scanning every open gate.
    sql: `
      CREATE INDEX gateflow_inputs_open_order ON gateflow_inputs (n) WHERE status = 'open';
      CREATE INDEX gateflow_inputs_open_owner ON gateflow_inputs (owner, n) WHERE status = 'open' AND addressed_to IS NULL;
      CREATE INDEX gateflow_inputs_open_role ON gateflow_inputs (addressed_to, n) WHERE status = 'open' AND addressed_to IS NOT NULL;
    `,
  },
  {
    version: 7,
    name: 'compact journal, steps in the events stream',
    // New entries keep reply and trace deflated in `body` (src/store/sql/journal-codec.ts), `reply` and
    // `trace` null; earlier rows keep theirs and read as before. `status` is the reply's; `event_id`
    // (from the events' sequence) places the step in the events stream as its session.stepped,
    // so a step needs no event row of its own.
    sql: `
      ALTER TABLE gateflow_journal ALTER COLUMN reply DROP NOT NULL;
      ALTER TABLE gateflow_journal ADD COLUMN body bytea;
      ALTER TABLE gateflow_journal ADD COLUMN status text;
      ALTER TABLE gateflow_journal ADD COLUMN event_id bigint;
      CREATE INDEX gateflow_journal_event ON gateflow_journal (event_id) WHERE event_id IS NOT NULL;
    `,
  },
  {
    version: 9,
    name: 'sessions listed newest first',
    // The order sessions were created in (a timestamp ties and loses precision in a cursor); the list reads it backwards.
    sql: `
      ALTER TABLE gateflow_sessions ADD COLUMN n bigserial;
      CREATE INDEX gateflow_sessions_recent ON gateflow_sessions (n);
      CREATE INDEX gateflow_sessions_flow_recent ON gateflow_sessions (flow_id, n);
    `,
  },
  {
    version: 10,
    name: 'drawings laid out',
    // The viewer's layouts, kept across restarts by what decides them (src/server/drawings.ts): the drawing, a hash of
    // its content, the level and the layout code. `body` is JSON text the server checks when it reads it; `n` orders
    // them by when they were stored (newest kept: LAYOUTS_PER_DRAWING per drawing, MAX_LAYOUTS in all).
    sql: `
      CREATE TABLE gateflow_layouts (
        drawing_id   text NOT NULL,
        content_hash text NOT NULL,
        level        text NOT NULL,
        code         text NOT NULL,
        body         text NOT NULL,
        stored_at    timestamptz NOT NULL DEFAULT now(),
        n            bigserial,
        PRIMARY KEY (drawing_id, content_hash, level, code)
      );
    `,
  },
  {
    version: 11,
    name: 'act keys claimed',
    // The document agent's act by its idempotency key alone (src/documents/act-claims.ts): a row per key while a
    // message sent with it and no chat is under way, taken before any work and deleted when it ends, so the table
    // holds only acts in flight. `key` is the SHA-256 of the key's JSON (owner, project, turn id: an owner's length
    // has no cap here); a claim whose holder died is taken over once `lease_until` has passed.
    sql: `
      CREATE TABLE gateflow_act_claims (
        key         bytea PRIMARY KEY,
        project_id  bigint NOT NULL,
        turn_id     text NOT NULL,
        token       text NOT NULL,
        lease_until timestamptz NOT NULL,
        claimed_at  timestamptz NOT NULL DEFAULT now()
      );
    `,
  },
];
