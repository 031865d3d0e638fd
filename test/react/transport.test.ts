import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpTransport, createLocalTransport, TransportError, type Transport } from '../../src/react/index.js';
import { startServer, type RunningServer } from '../../src/server/node.js';
import { createExtractActor } from '../../src/extract/actor.js';
import { flowWorkflow } from '../../src/flow/workflow.js';
import { patientIntakeFlow } from '../helpers/intake.js';
import { templateDataDir } from '../helpers/pglite-template.js';

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({
    workflows: [flowWorkflow(patientIntakeFlow())],
    actors: { extract: createExtractActor() },
    port: 0,
    dataDir: templateDataDir('graph'),
  });
});
afterAll(() => server.close());

describe.each([
  ['http', () => createHttpTransport({ baseUrl: server.url })],
  ['local', () => createLocalTransport({ workflows: [flowWorkflow(patientIntakeFlow())] })],
] as [string, () => Transport][])('the %s transport', (_name, make) => {
  it('lists flows, starts, takes turns (replays by turnId) and reads the session', async () => {
    const transport = make();
    expect((await transport.flows()).map((f) => f.id)).toEqual(['patient-intake']);
    const { sessionId, reply } = await transport.start('patient-intake');
    expect(reply.state).toEqual({ '1_patient_info_availability': 'asking' });
    const first = await transport.turn(sessionId, { button: 'Yes', turnId: 't1' });
    expect(await transport.turn(sessionId, { button: 'Yes', turnId: 't1' })).toEqual(first);
    const session = await transport.session(sessionId);
    expect(session.history).toHaveLength(2);
    expect(session.reply).toEqual(first);
  });

  it('raises TransportError with the API code', async () => {
    const transport = make();
    await expect(transport.session('no-such-session')).rejects.toMatchObject({ name: 'TransportError', code: 'session_not_found' });
    await expect(transport.start('nope')).rejects.toMatchObject({ code: 'flow_not_found' });
    const { sessionId } = await transport.start('patient-intake');
    await expect(transport.turn(sessionId, { txt: 'x' } as never)).rejects.toMatchObject({ code: 'invalid_turn' });
  });
});

describe('the http transport', () => {
  it('reports an unreachable server as code network', async () => {
    const transport = createHttpTransport({ baseUrl: 'http://127.0.0.1:1' });
    const error = await transport.flows().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransportError);
    expect(error).toMatchObject({ code: 'network' });
  });
});
