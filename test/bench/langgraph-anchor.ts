/**
 * The anchor `npm run bench` measures gateflow against: the same five-question
 * intake as a LangGraph.js StateGraph, one node per question that waits for
 * the person with `interrupt()` and is resumed with `Command({ resume })`, then
 * a confirmation node; checkpointed by MemorySaver or PostgresSaver.
 *
 * Its nodes only look the answer up in the question's categories (no synonyms,
 * no negation, no summary text): LangGraph.js is measured doing less work per
 * turn than gateflow does, so the ratios lean its way.
 */
import { Annotation, Command, END, MemorySaver, START, StateGraph, interrupt, type BaseCheckpointSaver } from '@langchain/langgraph';
import { PostgresSaver } from '@langchain/langgraph-checkpoint-postgres';
import pg from 'pg';
import type { Turn } from '../../src/workflow/turn.js';

export interface Question {
  key: string;
  question: string;
  categories: readonly string[];
}

const State = Annotation.Root({
  answers: Annotation<Record<string, string>>({ reducer: (a, b) => ({ ...a, ...b }), default: () => ({}) }),
  confirmed: Annotation<boolean>({ reducer: (_, b) => b, default: () => false }),
});

const said = (turn: unknown) => {
  const t = turn as Turn;
  return 'button' in t ? t.button : t.text;
};

/** The intake as a compiled graph over a checkpointer. */
export function intakeGraph(questions: readonly Question[], checkpointer: BaseCheckpointSaver) {
  // The node names are typed by the builder one by one; a loop over questions needs the loose form.
  const graph = new StateGraph(State) as unknown as {
    addNode(name: string, fn: (state: typeof State.State) => Partial<typeof State.State>): void;
    addEdge(from: string, to: string): void;
    compile(options: { checkpointer: BaseCheckpointSaver }): {
      invoke(input: unknown, config: { configurable: { thread_id: string } }): Promise<unknown>;
    };
  };
  questions.forEach((q, i) => {
    graph.addNode(`q${i}`, () => {
      const text = said(interrupt({ message: q.question, buttons: q.categories })).toLowerCase();
      const value = q.categories.find((c) => text.includes(c.toLowerCase())) ?? text;
      return { answers: { [q.key]: value } };
    });
  });
  graph.addNode('confirm', (state) => {
    const value = said(interrupt({ message: `Is this correct? ${JSON.stringify(state.answers)}`, buttons: ['confirm', 'edit'] }));
    return { confirmed: value === 'confirm' };
  });
  graph.addEdge(START, 'q0');
  questions.forEach((_, i) => graph.addEdge(`q${i}`, i + 1 < questions.length ? `q${i + 1}` : 'confirm'));
  graph.addEdge('confirm', END);
  return graph.compile({ checkpointer });
}

export interface Anchor {
  /** Starts a conversation (runs to the first question). */
  start(threadId: string): Promise<void>;
  /** One turn: resumes the waiting node with what the person said. */
  turn(threadId: string, turn: Turn): Promise<void>;
  close(): Promise<void>;
}

function anchor(questions: readonly Question[], checkpointer: BaseCheckpointSaver, close: () => Promise<void>): Anchor {
  const graph = intakeGraph(questions, checkpointer);
  const config = (threadId: string) => ({ configurable: { thread_id: threadId } });
  return {
    start: async (threadId) => void (await graph.invoke({ answers: {} }, config(threadId))),
    turn: async (threadId, turn) => void (await graph.invoke(new Command({ resume: turn }), config(threadId))),
    close,
  };
}

export const memoryAnchor = (questions: readonly Question[]): Anchor => anchor(questions, new MemorySaver(), async () => {});

/** What the anchor's pool sent: statements (each a round trip) and commits (COMMIT, or a write sent on its own). */
export interface Sent {
  roundTrips: number;
  commits: number;
}

/**
 * PostgresSaver on its own schema (made fresh, dropped by the caller), on a
 * pool made as `fromConnString` makes it, whose statements are counted.
 */
export async function postgresAnchor(questions: readonly Question[], url: string, schema: string): Promise<Anchor & { sent: Sent }> {
  const pool = new pg.Pool({ connectionString: url });
  const sent: Sent = { roundTrips: 0, commits: 0 };
  const count = (text: unknown) => {
    sent.roundTrips++;
    const sql = typeof text === 'string' ? text : String((text as { text?: unknown })?.text ?? '');
    if (/^\s*COMMIT\b/i.test(sql)) sent.commits++;
    return sql;
  };
  const query = pool.query.bind(pool) as (...args: unknown[]) => Promise<unknown>;
  (pool as unknown as { query: (...args: unknown[]) => Promise<unknown> }).query = (...args) => {
    // A statement on its own commits by itself when it writes.
    if (!/^\s*SELECT\b/i.test(count(args[0]))) sent.commits++;
    return query(...args);
  };
  const connect = pool.connect.bind(pool) as (...args: unknown[]) => Promise<pg.PoolClient> | undefined;
  // pool.query takes its client with a callback (counted above); the saver's transactions with a promise.
  (pool as unknown as { connect: (...args: unknown[]) => Promise<pg.PoolClient> | undefined }).connect = (...args) => {
    if (args.length > 0) return connect(...args);
    return counted(connect()!);
  };
  // A pooled client comes back again: counted once.
  const wrapped = new WeakSet<pg.PoolClient>();
  const counted = async (connecting: Promise<pg.PoolClient>) => {
    const client = await connecting;
    if (wrapped.has(client)) return client;
    wrapped.add(client);
    const clientQuery = client.query.bind(client) as (...args: unknown[]) => Promise<unknown>;
    (client as unknown as { query: (...args: unknown[]) => Promise<unknown> }).query = (...args) => {
      count(args[0]);
      return clientQuery(...args);
    };
    return client;
  };
  const saver = new PostgresSaver(pool, undefined, { schema });
  await saver.setup();
  return { ...anchor(questions, saver, () => saver.end()), sent };
}

/** LangGraph's checkpoint tables, and the column naming a conversation. */
export const LANGGRAPH_TABLES = ['checkpoints', 'checkpoint_blobs', 'checkpoint_writes'] as const;
