/**
 * Live inspection (issue 29 §3): a server started with `inspect` streams its
 * own session actors to a Stately inspector through `@statelyai/inspect`'s
 * WebSocket client. The hosted inspector cannot be reached here: a local
 * WebSocket server receives what would be relayed to it, and the test reads
 * the machine's definition and its state changes for a session driven over HTTP.
 * The store is a PostgreSQL schema of its own (no PGlite directory to make).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PATIENCE_MS } from '../helpers/patience.js';
import { flowWorkflow } from '../../src/flow/workflow.js';
import { startServer, type RunningServer } from '../../src/server/node.js';
import { call, exampleFlows } from '../helpers/http.js';
import { createTestSchema, hasPostgres, type TestSchema } from '../helpers/postgres.js';
import { startTextSocketServer, type TextSocketServer } from '../helpers/websocket-server.js';

const WAIT = PATIENCE_MS;

describe.skipIf(!hasPostgres)('startServer({ inspect })', () => {
  let socket: TextSocketServer;
  let schema: TestSchema;
  let server: RunningServer;
  beforeAll(async () => {
    socket = await startTextSocketServer();
    schema = await createTestSchema('gf_inspect');
    const refund = exampleFlows().find((f) => f.id === 'refund-approval')!;
    server = await startServer({ workflows: [flowWorkflow(refund)], databaseUrl: schema.url, port: 0, inspect: { url: socket.url } });
  });
  afterAll(async () => {
    await server?.close();
    await socket?.close();
    await schema?.drop();
  });

  it("sends the session machine's definition and each state it reaches to the inspector's WebSocket", async () => {
    const started = await call(server.url, '/api/flows/refund-approval/sessions', { method: 'POST' });
    expect(started.status, started.text).toBe(201);
    const turn = await call(server.url, `/api/sessions/${started.body.sessionId}/turns`, { json: { text: 'CD5678' } });
    expect(turn.status, turn.text).toBe(200);

    type Message = { type: string; name?: string; definition?: string; snapshot?: { value?: unknown }; event?: { type?: string } };
    const received = () => socket.messages.map((m) => JSON.parse(m) as Message);
    await expect.poll(() => received().some((m) => m.type === '@xstate.snapshot' && JSON.stringify(m.snapshot?.value) === '{"amount":"asking"}'), { timeout: WAIT }).toBe(true);

    const messages = received();
    // The machine itself, as the inspector draws it: the flow's states by name.
    const actor = messages.find((m) => m.type === '@xstate.actor' && m.name === 'refund-approval');
    expect(actor, JSON.stringify(messages.map((m) => [m.type, m.name]))).toBeDefined();
    const definition = JSON.parse(actor!.definition!) as { id: string; states: Record<string, unknown> };
    expect(definition.id).toBe('refund-approval');
    expect(Object.keys(definition.states)).toEqual(expect.arrayContaining(['order_number', 'amount', 'reason', 'review', 'manager_approval']));
    // Its state changes: asking for the order number, then for the amount once the turn was taken.
    const values = messages.filter((m) => m.type === '@xstate.snapshot').map((m) => JSON.stringify(m.snapshot?.value));
    expect(values).toContain('{"order_number":"asking"}');
    expect(values.indexOf('{"amount":"asking"}')).toBeGreaterThan(values.indexOf('{"order_number":"asking"}'));
    // And the turn's event, as the machine received it.
    expect(messages.some((m) => m.type === '@xstate.event' && typeof m.event?.type === 'string' && m.event.type.length > 0)).toBe(true);
  });

  it('refuses an inspector URL that is not a WebSocket URL, before opening the store', async () => {
    await expect(startServer({ workflows: [], databaseUrl: 'postgres://nowhere.invalid/x', port: 0, inspect: { url: 'http://127.0.0.1:8080' } })).rejects.toThrow(
      /the inspector URL must start with ws:\/\/ or wss:\/\/, not "http:\/\/127\.0\.0\.1:8080"/,
    );
  });
});
