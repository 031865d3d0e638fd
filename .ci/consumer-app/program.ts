// A consumer program, type-checked in strict mode against the installed tarball
// and run on the memory and PGlite stores (.ci/consumer): a flow imported from
// the package, a hand-written workflow, the runtime, the server from code, and
// a missing optional dependency's message.
import { createFlowRuntime, createRuntime, defineWorkflow, flowWorkflow, parseFlowValue, type Reply, type Runtime, type Turn } from 'gateflow';
import { createMemoryStore, type Store } from 'gateflow/store';
import { startServer, loadFlowsDir, exampleFlowsDir } from 'gateflow/server';
import contactRequest from 'gateflow/flows/contact-request.json' with { type: 'json' };
import { setup, assign } from 'xstate';

const flow = parseFlowValue(contactRequest, 'contact-request.json');

const greeting = defineWorkflow({
  id: 'greeting',
  version: 1,
  title: 'Greeting',
  machine: setup({
    types: { context: {} as { name: string | null }, events: {} as { type: 'user.text'; text: string } },
  }).createMachine({
    context: { name: null },
    initial: 'askingName',
    states: {
      askingName: { on: { 'user.text': { target: 'done', actions: assign({ name: ({ event }) => event.text }) } } },
      done: { type: 'final' },
    },
  }),
  reply: (snapshot) => (snapshot.matches('askingName') ? { message: 'What is your name?' } : { message: `Hello, ${snapshot.context.name ?? ''}!` }),
});

async function intake(runtime: Runtime<Reply>): Promise<Reply> {
  const { sessionId } = await runtime.start('contact-request');
  const turns: Turn[] = [{ text: 'Ada Lovelace' }, { text: 'ada@example.com' }, { button: 'confirm' }];
  let reply: Reply | undefined;
  for (const turn of turns) reply = await runtime.turn(sessionId, turn);
  return reply!;
}

async function run(store: Store, name: string): Promise<void> {
  const runtime = createFlowRuntime({ flows: [flow], store });
  const reply = await intake(runtime);
  if (reply.status !== 'done') throw new Error(`${name}: the intake ended ${reply.status}: ${reply.message}`);
  runtime.close();
  const greetings = createRuntime({ workflows: [greeting], store });
  const started = await greetings.start('greeting');
  const hello = await greetings.turn(started.sessionId, { text: 'Ada' });
  if (hello.message !== 'Hello, Ada!' || hello.status !== 'done') throw new Error(`${name}: the greeting said ${hello.message}`);
  greetings.close();
  console.log(`${name}: a flow and a hand-written workflow ran to the end`);
}

await run(createMemoryStore(), 'memory store');
const { createPgliteStore } = await import('gateflow/pglite');
const pglite = await createPgliteStore();
await run(pglite, 'PGlite store (in memory)');
await pglite.close();

// The server gateflow serve runs, from code: the example flows, a memory store, CORS for one origin.
const server = await startServer({
  workflows: loadFlowsDir(exampleFlowsDir()).map((doc) => flowWorkflow(doc)),
  store: createMemoryStore(),
  port: 0,
  corsOrigins: ['http://localhost:5173'],
});
const flows = (await (await fetch(`${server.url}/api/flows`)).json()) as { flows: { id: string }[] };
await server.close();
console.log(`server from code: ${flows.flows.length} flows served`);

// pg is an optional peer this app did not install: using it says what to install.
try {
  await import('gateflow/postgres');
  throw new Error('gateflow/postgres loaded without pg');
} catch (error) {
  const message = (error as Error).message;
  if (!message.includes('npm install') || !message.includes('pg')) throw error;
  console.log(`without pg: ${message}`);
}
