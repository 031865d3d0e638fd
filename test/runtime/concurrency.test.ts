/**
 * Concurrency against real databases (issue 3, section 5): two runtimes with
 * separate connections, and two processes, send 50 turns at once to one
 * session. Every turn is journaled exactly once, replays of a turnId change
 * nothing, and the final snapshot matches the journal.
 *
 * The PostgreSQL cases need GATEFLOW_TEST_DATABASE_URL (see test/helpers/postgres.ts).
 * The same in-process cases also run on two runtimes sharing one memory store
 * and one PGlite store, so that the race and retry logic is checked without a server.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { restoreConversation, startConversation } from '../../src/flow/conversation.js';
import { ConversationFinishedError, InvalidButtonError } from '../../src/runtime/errors.js';
import type { Reply } from '../../src/flow/reply.js';
import { createFlowRuntime } from '../../src/flow/runtime.js';
import type { Runtime } from '../../src/runtime/runtime.js';
import type { Turn } from '../../src/workflow/turn.js';
import { createMemoryStore } from '../../src/store/memory.js';
import { templateStore } from '../helpers/pglite-template.js';
import { createPostgresStore } from '../../src/store/postgres.js';
import type { JournalEntry, Store } from '../../src/store/types.js';
import type { WorkerResult } from '../helpers/concurrency-worker.js';
import { G1, G2, patientFlow as flow } from '../helpers/patient-intake.js';
import { createTestSchema, hasPostgres, type TestSchema } from '../helpers/postgres.js';
import { countingConflicts } from '../helpers/counting-store.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const WORKER = fileURLToPath(new URL('../helpers/concurrency-worker.ts', import.meta.url));
const N = 50;


interface Pair {
  a: Store & { conflicts(): number };
  b: Store & { conflicts(): number };
  close(): Promise<void>;
}

interface Backend {
  name: string;
  skip: boolean;
  /** Two stores on one database: separate pools for PostgreSQL, one shared store otherwise. */
  open(): Promise<Pair>;
}

let schema: TestSchema | undefined;

const backends: Backend[] = [
  {
    name: 'two runtimes sharing one memory store',
    skip: false,
    open: async () => {
      const store = createMemoryStore();
      const a = countingConflicts(store);
      const b = countingConflicts(store);
      return { a, b, close: () => store.close() };
    },
  },
  {
    name: 'two runtimes sharing one PGlite store',
    skip: false,
    open: async () => {
      const store = await templateStore();
      return { a: countingConflicts(store), b: countingConflicts(store), close: () => store.close() };
    },
  },
  {
    name: 'two runtimes with their own PostgreSQL pools',
    skip: !hasPostgres,
    open: async () => {
      if (!schema) throw new Error('no test schema');
      const a = await createPostgresStore({ connectionString: schema.url });
      const b = await createPostgresStore({ connectionString: schema.url }).catch(async (error: unknown) => {
        await a.close();
        throw error;
      });
      return { a: countingConflicts(a), b: countingConflicts(b), close: async () => void (await Promise.all([a.close(), b.close()])) };
    },
  },
];

beforeAll(async () => {
  if (hasPostgres) schema = await createTestSchema('gf_conc');
});
afterAll(async () => {
  await schema?.drop();
});

/** Seqs 1..n without gaps, the opening reply first, each turnId of `turnIds` exactly once. */
function expectWellFormedJournal(history: JournalEntry[], turnIds: string[]) {
  expect(history.map((e) => e.seq)).toEqual(Array.from({ length: history.length }, (_, i) => i + 1));
  expect(history[0]!.turn).toBeNull();
  expect(history[0]!.turnId).toBeNull();
  const seen = new Map<string, number>();
  for (const e of history.slice(1)) {
    expect(e.turn).not.toBeNull();
    // The turnId column and the turn's own turnId agree.
    expect(e.turnId).toBe((e.turn as Turn).turnId ?? null);
    if (e.turnId !== null) seen.set(e.turnId, (seen.get(e.turnId) ?? 0) + 1);
  }
  for (const id of turnIds) expect(seen.get(id), `turnId ${id} in the journal`).toBe(1);
  expect([...seen.values()].every((n) => n === 1)).toBe(true);
}

/**
 * The journal is a history that could have happened: replaying its turns in seq
 * order on a fresh conversation gives every stored reply, and the stored
 * snapshot gives the last one.
 */
async function expectJournalReplays(store: Store, sessionId: string, history: JournalEntry[]) {
  const fresh = startConversation(flow, { sessionId });
  try {
    expect({ ...fresh.reply(), inputs: [] }).toEqual(history[0]!.reply);
    for (const entry of history.slice(1)) {
      expect({ ...(await fresh.send(entry.turn as Turn)), inputs: [] }, `reply of seq ${entry.seq} (${JSON.stringify(entry.turn)})`).toEqual(entry.reply);
    }
  } finally {
    fresh.stop();
  }
  const loaded = await store.load(sessionId);
  expect(loaded).not.toBeNull();
  expect(loaded!.session.version).toBe(history.length);
  const restored = restoreConversation(flow, {
    sessionId,
    flowId: loaded!.session.flowId,
    flowVersion: loaded!.session.flowVersion,
    snapshot: loaded!.session.snapshot,
  });
  try {
    expect({ ...restored.reply(), inputs: [] }).toEqual(history[history.length - 1]!.reply);
  } finally {
    restored.stop();
  }
}

const AT_GATE_1 = { [G1]: 'asking' };

for (const backend of backends) {
  describe.skipIf(backend.skip)(`50 turns at once: ${backend.name}`, () => {
    // One database per backend; every test works on a session of its own.
    let pair: Pair | undefined;
    beforeAll(async () => {
      pair = await backend.open();
    });
    afterAll(async () => {
      await pair?.close();
    });

    /** Two fresh runtimes (no shared in-process queue) on the two stores. */
    const runtimes = async (): Promise<[Runtime, Runtime, Pair]> => {
      if (!pair) throw new Error('the stores did not open');
      return [createFlowRuntime({ flows: [flow], store: pair.a }), createFlowRuntime({ flows: [flow], store: pair.b }), pair];
    };

    it(
      'journals every turn exactly once, replays change nothing, the snapshot matches the journal',
      async () => {
        const [ra, rb, { a, b }] = await runtimes();
        const { sessionId } = await ra.start(flow.id);

        const conflictsBefore = a.conflicts() + b.conflicts();
        const turns = Array.from({ length: N }, (_, i) => ({ text: `hmm ${i}`, turnId: `t-${i}` }));
        const replies = await Promise.all(turns.map((t, i) => (i % 2 === 0 ? ra : rb).turn(sessionId, t)));

        // Nothing was understood: still at gate 1, every reply says so.
        for (const r of replies) {
          expect(r.state).toEqual(AT_GATE_1);
          expect(r.sessionId).toBe(sessionId);
        }
        // Both runtimes raced for the same version and the loser applied its turn again.
        expect(a.conflicts() + b.conflicts()).toBeGreaterThan(conflictsBefore);

        const history = await a.history(sessionId);
        expect(history).toHaveLength(N + 1);
        expectWellFormedJournal(
          history,
          turns.map((t) => t.turnId),
        );
        // Each caller got the reply that was journaled for its turn, and the journal has its text.
        const byTurnId = new Map(history.map((e) => [e.turnId, e]));
        turns.forEach((t, i) => {
          expect(byTurnId.get(t.turnId)!.turn).toEqual(t);
          expect(byTurnId.get(t.turnId)!.reply).toEqual(replies[i]);
        });
        // The other connection sees the same journal.
        expect(await b.history(sessionId)).toEqual(history);

        // Replays of 10 turnIds, each sent at once to both runtimes: the stored replies, nothing written.
        const replayed = turns.filter((_, i) => i % 5 === 2);
        expect(replayed).toHaveLength(10);
        const again = await Promise.all(replayed.flatMap((t) => [ra.turn(sessionId, t), rb.turn(sessionId, t)]));
        replayed.forEach((t, i) => {
          const stored = byTurnId.get(t.turnId)!.reply;
          expect(again[2 * i]).toEqual(stored);
          expect(again[2 * i + 1]).toEqual(stored);
        });
        const after = await a.history(sessionId);
        expect(after).toHaveLength(N + 1);
        expect(after).toEqual(history);

        // The final snapshot is version 51 and rebuilds the last journaled reply.
        const loaded = await b.load(sessionId);
        expect(loaded!.session.version).toBe(N + 1);
        await expectJournalReplays(b, sessionId, history);
      },
    );

    it(
      'orders real answers consistently: each reply follows from the one before',
      async () => {
        const [ra, rb, { a, b }] = await runtimes();
        const { sessionId } = await ra.start(flow.id);

        // Answers valid at some gate (none limiting), not-understood texts, and turns without a turnId.
        const fromA: Turn[] = [
          { button: 'Yes', turnId: 'a-yes' },
          { text: 'hmm a1', turnId: 'a-1' },
          { button: 'Partial', turnId: 'a-partial' },
          { text: 'hmm a2' },
          { button: 'Follow-up', turnId: 'a-follow-up' },
          { text: 'hmm a3', turnId: 'a-3' },
          { button: 'Adult', turnId: 'a-adult' },
          { text: 'hmm a4' },
        ];
        const fromB: Turn[] = [
          { button: 'Yes', turnId: 'b-yes' },
          { text: 'hmm b1', turnId: 'b-1' },
          { button: 'No', turnId: 'b-no-late' }, // never the first answer at gate 1: 'Yes' goes first on both sides
          { text: 'hmm b2' },
          { button: 'Urgent care', turnId: 'b-urgent' },
          { text: 'hmm b3', turnId: 'b-3' },
          { button: 'Minor', turnId: 'b-minor' },
          { text: 'hmm b4' },
        ];
        // Within one runtime turns are applied in the order sent, so each side's 'Yes'
        // comes before its 'No': gate 1 (where 'No' stops the intake) is always answered 'Yes'.
        // A button that the reply current when it is applied does not offer is refused
        // (invalid_button) and leaves no journal entry.
        const [settledA, settledB] = await Promise.all([
          Promise.allSettled(fromA.map((t) => ra.turn(sessionId, t))),
          Promise.allSettled(fromB.map((t) => rb.turn(sessionId, t))),
        ]);
        const sent = [...fromA.map((t, i) => [t, settledA[i]!] as const), ...fromB.map((t, i) => [t, settledB[i]!] as const)];
        for (const [turn, outcome] of sent)
          if (outcome.status === 'rejected') {
            expect('button' in turn, JSON.stringify(turn)).toBe(true);
            expect(outcome.reason).toBeInstanceOf(InvalidButtonError);
          }
        const applied = sent.flatMap(([turn, outcome]) => (outcome.status === 'fulfilled' ? [[turn, outcome.value] as const] : []));
        // Text is never refused; the first 'Yes' of both sides always finds gate 1 or gate 2 offering it.
        expect(applied.length).toBeGreaterThanOrEqual(fromA.length);

        const history = await a.history(sessionId);
        expect(history).toHaveLength(1 + applied.length);
        const ids = applied.flatMap(([t]) => (t.turnId ? [t.turnId] : []));
        expectWellFormedJournal(history, ids);
        // Every applied turn is in the journal once (turnless ones by their text), with the reply its caller got.
        for (const [turn, reply] of applied) {
          const entries = history.filter((e) => JSON.stringify(e.turn) === JSON.stringify(turn));
          expect(entries, JSON.stringify(turn)).toHaveLength(1);
          expect(entries[0]!.reply).toEqual(reply);
        }

        // The first 'Yes' in journal order answers gate 1; a second one, if applied, answers gate 2 (the only other offering it).
        const yes = history.filter((e) => e.turn && 'button' in e.turn && e.turn.button === 'Yes');
        expect(yes.length).toBeGreaterThanOrEqual(1);
        const [firstYes, secondYes] = yes as [JournalEntry & { reply: Reply }, (JournalEntry & { reply: Reply }) | undefined];
        expect(firstYes.reply.answers[G1]).toMatchObject({ value: 'Yes', source: 'button' });
        expect(firstYes.reply.state).not.toEqual(AT_GATE_1);
        if (secondYes) {
          expect(secondYes.reply.answers[G1]).toEqual(firstYes.reply.answers[G1]);
          expect(history[secondYes.seq - 2]!.reply.state).toEqual({ [G2]: 'asking' });
          expect(secondYes.reply.answers[G2]).toMatchObject({ value: 'Yes', source: 'button' });
        }
        // Nothing stopped the intake: 'No' never reached gate 1.
        expect(history.every((e) => e.reply.completion.reason !== 'stopped_limiting_value')).toBe(true);

        await expectJournalReplays(b, sessionId, history);
      },
    );

    it(
      'applies a new turnId sent at once from both runtimes exactly once',
      async () => {
        const [ra, rb, { a }] = await runtimes();
        const { sessionId } = await ra.start(flow.id);
        const turn = { button: 'Yes', turnId: 'same' };
        const replies = await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 === 0 ? ra : rb).turn(sessionId, turn)));
        const history = await a.history(sessionId);
        expect(history).toHaveLength(2);
        expectWellFormedJournal(history, ['same']);
        for (const r of replies) expect(r).toEqual(history[1]!.reply);
        expect(history[1]!.reply.state).toEqual({ [G2]: 'asking' });
        await expectJournalReplays(a, sessionId, history);
      },
    );

    it(
      'hands off once when both runtimes confirm at once; the other confirms are refused',
      async () => {
        const [ra, rb, { a }] = await runtimes();
        const { sessionId } = await ra.start(flow.id);
        for (const button of ['Yes', 'Yes', 'Follow-up', 'Adult', 'Email']) await ra.turn(sessionId, { button });
        const confirms = Array.from({ length: 10 }, (_, i) => ({ button: 'confirm', turnId: `c-${i}` }));
        const settled = await Promise.allSettled(confirms.map((t, i) => (i % 2 === 0 ? ra : rb).turn(sessionId, t)));

        const won = settled.flatMap((s, i) => (s.status === 'fulfilled' ? [{ reply: s.value, turnId: confirms[i]!.turnId }] : []));
        expect(won).toHaveLength(1);
        expect(won[0]!.reply.completion.reason).toBe('handed_off');
        for (const s of settled)
          if (s.status === 'rejected') expect(s.reason).toBeInstanceOf(ConversationFinishedError);

        const history = await a.history(sessionId);
        expect(history).toHaveLength(7);
        expectWellFormedJournal(history, [won[0]!.turnId]);
        expect(history.flatMap((e) => e.reply.artifacts).filter((x) => x.type === 'HANDOFF')).toHaveLength(1);
        expect(history[6]!.reply).toEqual(won[0]!.reply);
        // The winner replayed from the other runtime: the same reply, nothing new.
        const other = Number(won[0]!.turnId.slice(2)) % 2 === 0 ? rb : ra;
        expect(await other.turn(sessionId, { button: 'confirm', turnId: won[0]!.turnId })).toEqual(won[0]!.reply);
        expect(await a.history(sessionId)).toEqual(history);
        await expectJournalReplays(a, sessionId, history);
      },
    );
  });
}

describe.skipIf(!hasPostgres)('50 turns at once from two processes (PostgreSQL)', () => {
  const children = new Set<ChildProcessWithoutNullStreams>();
  afterEach(async () => {
    await Promise.all([...children].map(kill));
    children.clear();
  });

  it(
    'journals every turn of both processes exactly once',
    async () => {
      if (!schema) throw new Error('no test schema');
      const store = await createPostgresStore({ connectionString: schema.url });
      try {
        const runtime = createFlowRuntime({ flows: [flow], store });
        const { sessionId } = await runtime.start(flow.id);
        const per = N / 2;

        const workers = [0, 1].map((index) => {
          const child = spawn(process.execPath, ['--import', 'tsx', WORKER, schema!.url, sessionId, String(index), String(per)], {
            cwd: ROOT,
            env: { ...process.env, NODE_OPTIONS: '' },
          });
          children.add(child);
          return watch(child);
        });
        // Both connected: let them go together.
        await Promise.all(workers.map((w) => w.ready));
        for (const w of workers) w.child.stdin.write('go\n');
        const outputs = await Promise.all(workers.map((w) => w.done));

        const results: WorkerResult[] = outputs.map((o) => JSON.parse(o.trim().split('\n').pop()!) as WorkerResult);
        for (const r of results) {
          expect(r.results).toHaveLength(per);
          for (const x of r.results) expect('error' in x ? x.error : null, x.turnId).toBeNull();
        }

        const history = await store.history(sessionId);
        expect(history).toHaveLength(N + 1);
        const turnIds = results.flatMap((r) => r.results.map((x) => x.turnId));
        expect(new Set(turnIds).size).toBe(N);
        expectWellFormedJournal(history, turnIds);
        const byTurnId = new Map(history.map((e) => [e.turnId, e]));
        for (const r of results)
          for (const x of r.results) if ('reply' in x) expect(byTurnId.get(x.turnId)!.reply, x.turnId).toEqual(x.reply);

        // Replays from this process change nothing.
        const replayed = turnIds.filter((_, i) => i % 5 === 0).slice(0, 10);
        const again = await Promise.all(
          replayed.map((id) => runtime.turn(sessionId, { ...(byTurnId.get(id)!.turn as Turn), turnId: id })),
        );
        replayed.forEach((id, i) => expect(again[i]).toEqual(byTurnId.get(id)!.reply));
        expect(await store.history(sessionId)).toEqual(history);

        await expectJournalReplays(store, sessionId, history);
        // Informational: how often a process lost the version race.
        console.info(`two processes: ${results.map((r) => r.conflicts).join(' + ')} conflicts retried`);
      } finally {
        await store.close();
      }
    },
  );
});

interface Watched {
  child: ChildProcessWithoutNullStreams;
  ready: Promise<void>;
  /** Resolves with stdout when the child exits 0; rejects with its stderr otherwise. */
  done: Promise<string>;
}

function watch(child: ChildProcessWithoutNullStreams): Watched {
  let stdout = '';
  let stderr = '';
  let markReady: () => void = () => {};
  let failReady: (error: Error) => void = () => {};
  const ready = new Promise<void>((resolve, reject) => {
    markReady = resolve;
    failReady = reject;
  });
  child.stdout.setEncoding('utf8');
  child.stderr.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    stdout += chunk;
    if (/^ready$/m.test(stdout)) markReady();
  });
  child.stderr.on('data', (chunk: string) => {
    stderr += chunk;
  });
  const done = new Promise<string>((resolve, reject) => {
    child.once('exit', (code, signal) => {
      if (code === 0) resolve(stdout.replace(/^ready\n/, ''));
      else {
        const error = new Error(`worker exited with ${code ?? signal}: ${stderr}`);
        failReady(error);
        reject(error);
      }
    });
  });
  // A failure before `ready` is reported by `ready`; keep `done` from being unhandled meanwhile.
  done.catch(() => undefined);
  return { child, ready, done };
}

async function kill(child: ChildProcessWithoutNullStreams): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGKILL');
  await exited;
}
