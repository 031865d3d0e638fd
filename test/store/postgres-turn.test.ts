/**
 * What a turn sends to PostgreSQL: on a session this process saved last, one
 * statement (no SELECT before it), the same text every turn, prepared once per
 * connection; and the turn is committed when it is acknowledged (another
 * connection reads it at once). The bench (`npm run bench`) sets this beside
 * one durable commit on its own, the floor of any turn that writes.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFlowRuntime } from '../../src/flow/runtime.js';
import type { Runtime } from '../../src/runtime/runtime.js';
import { createPostgresClient } from '../../src/store/postgres.js';
import { createSqlStore, upgradeSchema, type SqlClient } from '../../src/store/sql/sql-store.js';
import type { Store } from '../../src/store/types.js';
import type { Turn } from '../../src/workflow/turn.js';
import { patientFlow as flow } from '../helpers/patient-intake.js';
import { createTestSchema, hasPostgres, type TestSchema } from '../helpers/postgres.js';

const INTAKE: Turn[] = [{ button: 'Yes' }, { text: 'no, always covered' }, { button: 'Follow-up' }, { text: 'an adult' }, { button: 'Email' }, { button: 'confirm' }];

describe.skipIf(!hasPostgres)('a turn on PostgreSQL', () => {
  let schema: TestSchema;
  let inner: SqlClient;
  let store: Store;
  let runtime: Runtime;
  let other: pg.Client;
  const sent: string[] = [];
  beforeAll(async () => {
    schema = await createTestSchema('gf_pgturn');
    // One connection: the statements it has prepared are the ones this store sent.
    inner = createPostgresClient({ connectionString: schema.url, max: 1 });
    await upgradeSchema(inner);
    const counted: SqlClient = {
      query: (text, params) => (sent.push(text), inner.query(text, params)),
      transaction: (fn) => (sent.push('(transaction)'), inner.transaction(fn)),
      close: () => inner.close(),
    };
    store = createSqlStore('postgres', counted);
    runtime = createFlowRuntime({ flows: [flow], store });
    other = new pg.Client({ connectionString: schema.url });
    await other.connect();
  });
  afterAll(async () => {
    runtime?.close();
    await other?.end();
    await store?.close();
    await schema?.drop();
  });

  it('is one statement, no SELECT, the same prepared one each turn, committed when acknowledged', async () => {
    sent.length = 0;
    const { sessionId } = await runtime.start(flow.id);
    expect(sent).toHaveLength(1);
    const turns: string[][] = [];
    for (const [i, turn] of INTAKE.entries()) {
      sent.length = 0;
      await runtime.turn(sessionId, turn);
      turns.push([...sent]);
      // Acknowledged means committed: another connection sees the step at once.
      const { rows } = await other.query<{ version: number }>('SELECT version FROM gateflow_sessions WHERE id = $1', [sessionId]);
      expect(rows[0]!.version).toBe(i + 2);
    }
    for (const statements of turns) {
      expect(statements).toHaveLength(1);
      expect(statements[0]).toMatch(/^WITH s AS \(\s*UPDATE gateflow_sessions/);
      expect(statements[0]).toMatch(/INSERT INTO gateflow_journal/);
    }
    // Every turn but the last (which announces the session finished) sends the same short statement.
    expect(new Set(turns.slice(0, -1).map((s) => s[0])).size).toBe(1);
    // The last one adds its announcement and nothing else: no gate insert or update that would run on an empty list.
    const last = turns.at(-1)![0]!;
    expect(last).toMatch(/INSERT INTO gateflow_events/);
    expect(last).not.toMatch(/gateflow_inputs/);
    const events = await store.readEvents(0, 100);
    // Written, and announced before the step itself.
    expect(events.filter((e) => e.sessionId === sessionId).map((e) => e.type).slice(-2)).toEqual(['session.finished', 'session.stepped']);
    // Prepared on this connection once, used by every turn since.
    const { rows } = await inner.query<{ statement: string }>('SELECT statement FROM pg_prepared_statements');
    expect(rows.filter((r) => r.statement === turns[0]![0])).toHaveLength(1);
  });
});
