/**
 * Crash tests against real processes (issue 3, section 5): `gateflow serve` on
 * PGlite is killed with SIGKILL in the middle of a conversation, started again
 * on the same directory, and continues it with every answer kept; an
 * extraction in flight when the process dies is simply run again, with no
 * duplicate turn and no duplicate HANDOFF. Input gates (issue 12) outlive the
 * process: an open gate keeps its id and is answered after the restart, and a
 * deadline that passes while the server is down fires once when it is back.
 */
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Reply } from '../../src/flow/reply.js';
import type { OpenInput } from '../../src/inputs/gate.js';
import type { JournalTurn } from '../../src/store/types.js';
import type { Turn } from '../../src/workflow/turn.js';
import { createPgliteStore } from '../../src/store/pglite.js';
import { templateDataDir } from '../helpers/pglite-template.js';
import { withEvidence } from '../helpers/mock-model.js';
import {
  personMessage,
  respond,
  startOpenAICompatibleServer,
  type OpenAICompatibleServer,
  type RecordedRequest,
  type Responder,
} from '../helpers/openai-compatible-server.js';
import { G1, G2, G3, G4, G5 } from '../helpers/patient-intake.js';
import { spawnServe, stopProcess, type ServeProcess } from '../helpers/serve-process.js';
import { PATIENCE_MS } from '../helpers/patience.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** Text the offline matcher abstains on at gate 2 (see test/extract/openai-server.test.ts), so the model is asked. */
const HARD_TEXT = 'Her coverage story is complicated';

interface Session {
  reply: Reply;
  history: { turn: Turn | null; reply: Reply }[];
}

type Server = ServeProcess;

const children = new Set<ChildProcessWithoutNullStreams>();
let base: string;
/** An initialized (migrated) PGlite directory, copied for each test so that no test waits for initdb. */
let template: string;

beforeAll(async () => {
  base = mkdtempSync(join(tmpdir(), 'gateflow-crash-'));
  // With AGE enabled, as `gateflow serve` leaves a directory: no server start pays for CREATE EXTENSION.
  template = templateDataDir('graph', join(base, 'template'));
});

afterEach(async () => {
  await Promise.all([...children].map(kill));
  children.clear();
});

afterAll(() => {
  if (base) rmSync(base, { recursive: true, force: true });
});

/** A PGlite directory of its own for one test. */
function freshDir(name: string): string {
  const dir = join(base, name);
  cpSync(template, dir, { recursive: true });
  return dir;
}

/** `gateflow serve --port 0` on `dbDir` (with more options in `args`), resolved once it prints where it listens. */
async function startServe(dbDir: string, env: Record<string, string> = {}, args: string[] = []): Promise<Server> {
  const server = await spawnServe({ env: { GATEFLOW_DB_DIR: dbDir, ...env }, args });
  children.add(server.child);
  return server;
}

const kill = (child: ChildProcessWithoutNullStreams) => stopProcess(child);

/** SIGKILL: no shutdown handler runs, nothing is flushed or closed. */
async function crash(server: Server): Promise<void> {
  await kill(server.child);
  expect(server.child.signalCode).toBe('SIGKILL');
  children.delete(server.child);
}

async function call<T>(server: Server, method: string, path: string, body?: unknown): Promise<{ status: number; json: T }> {
  const response = await fetch(`${server.url}${path}`, {
    method,
    ...(method === 'POST' && { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body ?? {}) }),
    signal: AbortSignal.timeout(PATIENCE_MS),
  });
  return { status: response.status, json: (await response.json()) as T };
}

async function startSession(server: Server): Promise<{ sessionId: string; reply: Reply }> {
  const { status, json } = await call<{ sessionId: string; reply: Reply }>(server, 'POST', '/api/flows/patient-intake/sessions');
  expect(status).toBe(201);
  return json;
}

async function turn(server: Server, sessionId: string, t: Turn): Promise<Reply> {
  const { status, json } = await call<Reply>(server, 'POST', `/api/sessions/${sessionId}/turns`, t);
  expect(status, JSON.stringify(json)).toBe(200);
  return json;
}

/** The session with its whole history, read page by page. */
async function session(server: Server, sessionId: string): Promise<Session> {
  const history: Session['history'] = [];
  let after = 0;
  for (;;) {
    const page: { status: number; json: Session & { nextAfter: number | null } } = await call(server, 'GET', `/api/sessions/${sessionId}?after=${after}&limit=200`);
    expect(page.status).toBe(200);
    history.push(...page.json.history);
    if (page.json.nextAfter === null) return { reply: page.json.reply, history };
    after = page.json.nextAfter;
  }
}

/** HANDOFF artifacts in the whole history (the current reply is its last entry). */
const handoffs = (s: Session) => s.history.flatMap((e) => e.reply.artifacts).filter((a) => a.type === 'HANDOFF').length;
const asking = (gate: string) => ({ [gate]: 'asking' });
const withTurnId = (s: Session, id: string) => s.history.filter((e) => e.turn?.turnId === id);

describe('gateflow serve killed with SIGKILL (PGlite)', () => {
  it(
    'continues a conversation after a restart with every answer kept, and hands off once',
    async () => {
      const dir = freshDir('kill-between-turns');
      let server = await startServe(dir);
      const { sessionId, reply: opening } = await startSession(server);
      expect(opening.state).toEqual(asking(G1));
      const r1 = await turn(server, sessionId, { button: 'Yes', turnId: 'g1' });
      expect(r1.state).toEqual(asking(G2));
      const r2 = await turn(server, sessionId, { text: 'there was one gap', turnId: 'g2' });
      expect(r2.state).toEqual(asking(G3));
      const before = await session(server, sessionId);

      await crash(server);
      server = await startServe(dir);

      const after = await session(server, sessionId);
      expect(after).toEqual(before);
      expect(after.reply).toEqual(r2);
      expect(after.reply.answers).toEqual({
        [G1]: { value: 'Yes', confidence: 1, source: 'button', raw: 'Yes' },
        [G2]: expect.objectContaining({ value: 'Partial', source: 'match', raw: 'there was one gap' }),
      });
      expect(after.history.map((e) => e.turn)).toEqual([null, { button: 'Yes', turnId: 'g1' }, { text: 'there was one gap', turnId: 'g2' }]);
      expect(after.history.map((e) => e.reply)).toEqual([opening, r1, r2]);
      // A replay of a turn taken before the crash returns what it got then.
      expect(await turn(server, sessionId, { button: 'Yes', turnId: 'g1' })).toEqual(r1);

      expect((await turn(server, sessionId, { button: 'Follow-up' })).state).toEqual(asking(G4));
      expect((await turn(server, sessionId, { button: 'Adult' })).state).toEqual(asking(G5));
      expect((await turn(server, sessionId, { button: 'Email' })).completion.reason).toBe('awaiting_user_confirmation');
      const done = await turn(server, sessionId, { button: 'confirm', turnId: 'confirm-1' });
      expect(done.completion).toEqual({ isComplete: true, reason: 'handed_off', readyForHandoff: true });
      expect(done.answers).toMatchObject({
        [G1]: { value: 'Yes' },
        [G2]: { value: 'Partial' },
        [G3]: { value: 'Follow-up' },
        [G4]: { value: 'Adult' },
        [G5]: { value: 'Email' },
      });
      const finished = await session(server, sessionId);
      expect(finished.history).toHaveLength(7);
      expect(handoffs(finished)).toBe(1);

      // Killed once more after the handoff: the confirm turn replayed gives the same
      // reply, a new one is refused, and the HANDOFF stays single.
      await crash(server);
      server = await startServe(dir);
      expect(await turn(server, sessionId, { button: 'confirm', turnId: 'confirm-1' })).toEqual(done);
      const refused = await call<{ error: { code: string } }>(server, 'POST', `/api/sessions/${sessionId}/turns`, { button: 'confirm' });
      expect(refused.status).toBe(409);
      const final = await session(server, sessionId);
      expect(final).toEqual(finished);
      expect(handoffs(final)).toBe(1);
    },
  );

  it(
    'loses no acknowledged turn when killed at an arbitrary moment while turns stream in',
    async () => {
      const dir = freshDir('kill-while-busy');
      // As many turns as stream in before each kill: no cap gets in the way.
      const env = { GATEFLOW_MAX_TURNS: '1000000' };
      let server = await startServe(dir, env);
      const { sessionId } = await startSession(server);
      /** Every turn that got a 200, with the reply it got. */
      const acked = new Map<string, Reply>();
      const rounds = 3;
      // Buttons through the intake, then "edit" and "back" at the summary again and again: the session never ends, and no answer fails.
      const answers = ['Yes', 'No', 'New patient', 'Adult', 'Email'];
      const buttonAt = (n: number) => (n < answers.length ? answers[n]! : (n - answers.length) % 2 === 0 ? 'edit' : 'back');
      let sent = 0;

      for (let round = 0; round < rounds; round++) {
        let killed = false;
        let inFlight: Turn | undefined;
        // A few turns through (2 to 4: counted, not timed, so a loaded machine changes nothing), then the kill.
        const through = 2 + Math.floor(Math.random() * 3);
        let fewThrough!: () => void;
        const fewAcked = new Promise<void>((resolve) => (fewThrough = resolve));
        const stream = (async () => {
          for (let i = 0; !killed; i++) {
            const t: Turn = { button: buttonAt(sent++), turnId: `r${round}-${i}` };
            inFlight = t;
            try {
              const { status, json } = await call<Reply>(server, 'POST', `/api/sessions/${sessionId}/turns`, t);
              expect(status).toBe(200);
              acked.set(t.turnId!, json);
              inFlight = undefined;
              if (i + 1 === through) fewThrough();
            } catch {
              return; // the connection dropped: the process is gone
            }
          }
        })();
        // Then a random moment later (a turn takes about as long), so the kill lands in the middle of whatever it is doing.
        // (A stream that ended early, a turn refused, does not leave this waiting: the checks below then tell.)
        await Promise.race([fewAcked, stream]);
        await new Promise((r) => setTimeout(r, Math.floor(Math.random() * 150)));
        killed = true;
        await crash(server);
        await stream;

        server = await startServe(dir, env);
        const s = await session(server, sessionId);
        // Every acknowledged turn is there exactly once, with the reply the client got.
        for (const [id, reply] of acked) {
          const entries = withTurnId(s, id);
          expect(entries, id).toHaveLength(1);
          expect(entries[0]!.reply).toEqual(reply);
        }
        // The turn cut off (committed or not) is sent again and ends up in the journal once.
        if (inFlight) {
          const t: Turn = inFlight;
          acked.set(t.turnId!, await turn(server, sessionId, t));
          expect(withTurnId(await session(server, sessionId), t.turnId!)).toHaveLength(1);
        }
      }

      const s = await session(server, sessionId);
      expect(acked.size).toBeGreaterThan(rounds);
      expect(s.history).toHaveLength(1 + acked.size);
      expect(new Set(s.history.slice(1).map((e) => e.turn?.turnId)).size).toBe(acked.size);
      for (const e of s.history.slice(1)) expect(e.reply).toEqual(acked.get(e.turn!.turnId!));
    },
  );

  describe('with a model whose answer is still pending when the process dies', () => {
    let model: OpenAICompatibleServer;
    beforeAll(async () => {
      model = await startOpenAICompatibleServer();
    });
    afterAll(async () => {
      await model?.close();
    });
    beforeEach(() => model.reset());

    /** Answers gate 2 with `value`; every other gate offered "unknown". */
    const answeringGate2 =
      (value: string): Responder =>
      (request: RecordedRequest, res) => {
        const body = request.body as {
          response_format?: { json_schema?: { schema?: { properties?: { answers?: { properties?: Record<string, unknown> } } } } };
        };
        const keys = Object.keys(body.response_format?.json_schema?.schema?.properties?.answers?.properties ?? { [G2]: null });
        const answers: Record<string, { value: string; confidence: number }> = {};
        for (const key of keys) answers[key] = key === G2 ? { value, confidence: 0.9 } : { value: 'unknown', confidence: 0.9 };
        respond.json({ answers: withEvidence(answers, personMessage(request)) })(request, res);
      };

    it(
      'runs the extraction again after a restart: the turn is journaled once, the answer committed once, one HANDOFF',
      async () => {
        const dir = freshDir('kill-during-extraction');
        const env = {
          OPENAI_BASE_URL: model.baseURL,
          OPENAI_API_KEY: 'test',
          GATEFLOW_MODEL: 'test-model',
          GATEFLOW_MODEL_TIMEOUT_MS: '20000',
        };
        let server = await startServe(dir, env);
        expect(server.output()).toContain('model "test-model"');
        const { sessionId } = await startSession(server);
        const r1 = await turn(server, sessionId, { button: 'Yes', turnId: 't-1' });
        expect(r1.state).toEqual(asking(G2));
        expect(model.requests).toHaveLength(0);

        // The model takes 3 s; the process dies while it thinks.
        model.enqueue(respond.delayed(3000, answeringGate2('Partial')));
        const crashTurn: Turn = { text: HARD_TEXT, turnId: 't-crash' };
        const inFlight = call(server, 'POST', `/api/sessions/${sessionId}/turns`, crashTurn).then(
          (r) => ({ ok: true as const, status: r.status }),
          (error: unknown) => ({ ok: false as const, error }),
        );
        const deadline = Date.now() + PATIENCE_MS;
        while (model.requests.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
        expect(model.requests).toHaveLength(1);
        await crash(server);
        // The client saw the connection drop, not an answer.
        expect((await inFlight).ok).toBe(false);
        expect(model.pending()).toBe(0);

        // Restarted, with a model that answers at once.
        model.enqueue(answeringGate2('Partial'));
        server = await startServe(dir, env);
        const beforeRetry = await session(server, sessionId);
        expect(beforeRetry.history).toHaveLength(2);
        expect(withTurnId(beforeRetry, 't-crash')).toHaveLength(0);
        expect(beforeRetry.reply).toEqual(r1);

        const retried = await turn(server, sessionId, crashTurn);
        expect(model.requests).toHaveLength(2);
        expect(retried.state).toEqual(asking(G3));
        expect(retried.answers[G2]).toEqual({ value: 'Partial', confidence: 0.9, source: 'llm', raw: HARD_TEXT });
        expect(Object.keys(retried.answers).sort()).toEqual([G1, G2]);
        // Resent once more: the stored reply, and the model is not asked again.
        expect(await turn(server, sessionId, crashTurn)).toEqual(retried);
        expect(model.requests).toHaveLength(2);

        const afterRetry = await session(server, sessionId);
        expect(afterRetry.history).toHaveLength(3);
        expect(withTurnId(afterRetry, 't-crash')).toHaveLength(1);
        expect(withTurnId(afterRetry, 't-crash')[0]!.reply).toEqual(retried);
        // The answer to gate 2 was committed by exactly one turn.
        const g2Commits = afterRetry.history.filter((e, i) => e.reply.answers[G2] && !afterRetry.history[i - 1]?.reply.answers[G2]);
        expect(g2Commits).toHaveLength(1);

        await turn(server, sessionId, { button: 'Follow-up' });
        await turn(server, sessionId, { button: 'Adult' });
        await turn(server, sessionId, { button: 'Email' });
        const confirm: Turn = { button: 'confirm', turnId: 't-confirm' };
        const done = await turn(server, sessionId, confirm);
        expect(done.completion.reason).toBe('handed_off');
        expect(done.artifacts.filter((a) => a.type === 'HANDOFF')).toHaveLength(1);
        expect(await turn(server, sessionId, confirm)).toEqual(done);

        const finished = await session(server, sessionId);
        expect(finished.history).toHaveLength(7);
        expect(handoffs(finished)).toBe(1);
        expect(withTurnId(finished, 't-confirm')).toHaveLength(1);
        expect(model.requests).toHaveLength(2);

        // Killed once more; the journal on disk, read directly: seq 1..7, each turnId once,
        // the stored version matches it.
        await crash(server);
        const store = await createPgliteStore({ dataDir: dir });
        try {
          const journal = await store.history(sessionId);
          expect(journal.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5, 6, 7]);
          expect(journal.filter((e) => e.turnId === 't-crash')).toHaveLength(1);
          expect(journal.filter((e) => e.turnId === 't-confirm')).toHaveLength(1);
          expect(journal.map((e) => e.reply)).toEqual(finished.history.map((e) => e.reply));
          const loaded = await store.load(sessionId);
          expect(loaded!.session.version).toBe(7);
        } finally {
          await store.close();
        }
      },
    );
  });
});

/** A reply of a flow with input gates: its status and the session's open gates. */
type GatedReply = Reply & { status: string; inputs: OpenInput[] };

interface GatedSession {
  reply: GatedReply;
  history: { turn: JournalTurn | null; reply: GatedReply }[];
}

/** The refund-approval turns up to the manager's gates (150 EUR is above the 100 EUR of automatic approval). */
const REFUND_TURNS: Turn[] = [
  { text: 'AB1234', turnId: 'r-order' },
  { text: '150', turnId: 'r-amount' },
  { text: 'it arrived broken', turnId: 'r-reason' },
  { button: 'confirm', turnId: 'r-confirm' },
];
const APPROVED = 'Good news: a manager approved a refund of 150 EUR for order AB1234.';
const TAKES_OVER = 'a person from our support team is taking over your refund request for order AB1234';

/** A refund-approval session (of `flowId`) driven through the chat to the wait for the manager. */
async function refundAtWait(server: Server, flowId = 'refund-approval'): Promise<{ sessionId: string; waiting: GatedReply }> {
  const started = await call<{ sessionId: string }>(server, 'POST', `/api/flows/${flowId}/sessions`);
  expect(started.status).toBe(201);
  const { sessionId } = started.json;
  let waiting: GatedReply | undefined;
  for (const t of REFUND_TURNS) waiting = (await turn(server, sessionId, t)) as GatedReply;
  expect(waiting!.state).toEqual({ manager_approval: 'waiting' });
  expect(waiting!.status).toBe('waiting');
  expect(waiting!.inputs.map((g) => g.name)).toEqual(['approved', 'approved_amount']);
  return { sessionId, waiting: waiting! };
}

/** Every open gate the server lists (of every session). */
const openInputs = async (server: Server) => {
  const { status, json } = await call<{ inputs: OpenInput[] }>(server, 'GET', '/api/inputs');
  expect(status).toBe(200);
  return json.inputs;
};

const gatedSession = (server: Server, sessionId: string) => session(server, sessionId) as unknown as Promise<GatedSession>;

/** The chat turns of a history, in order: each of REFUND_TURNS exactly once means nothing before the wait ran again. */
const chatTurns = (s: GatedSession) => s.history.map((e) => e.turn).filter((t): t is Turn => t !== null && ('text' in t || 'button' in t));
const timeouts = (s: GatedSession) => s.history.filter((e) => e.turn !== null && 'timeout' in e.turn);

/** The example refund flow as `refund-approval-1h`: its manager has an hour instead of 24, far beyond what reaching the wait takes, however loaded the machine. */
function shortDeadlineFlows(): string {
  const flows = join(base, 'flows-short-deadline');
  mkdirSync(flows, { recursive: true });
  const doc = JSON.parse(readFileSync(join(ROOT, 'machines', 'flows', 'refund-approval.json'), 'utf8')) as { id: string; nodes: { id: string; deadline?: string }[] };
  doc.id = 'refund-approval-1h';
  doc.nodes.find((n) => n.id === 'manager_approval')!.deadline = 'PT1H';
  writeFileSync(join(flows, 'refund-approval-1h.json'), JSON.stringify(doc));
  return flows;
}

/**
 * Two sessions waiting for a manager in one server, killed and started again
 * together (each restart costs seconds): one whose gate is answered across the
 * kill, one whose deadline passes while the server is down.
 */
describe('input gates when gateflow serve is killed with SIGKILL (PGlite)', () => {
  it(
    'keeps the unanswered gate with its id (answered after the restart, the flow finishes, nothing before the wait runs again); a deadline that passed while the server was down fires exactly once after the restart',
    async () => {
      const dir = freshDir('gates-across-kill');
      // The examples, and the refund flow with a deadline of an hour.
      const args = ['--flows', shortDeadlineFlows(), '--with-examples'];
      let server = await startServe(dir, {}, args);

      // Answered across the kill: the example flow (a manager has 24 hours).
      const { sessionId, waiting } = await refundAtWait(server);
      const [approved, amount] = waiting.inputs as [OpenInput, OpenInput];
      // Timed out across the kill.
      const late = await refundAtWait(server, 'refund-approval-1h');
      const deadline = Date.parse(late.waiting.inputs[0]!.deadline!);
      expect(deadline - Date.parse(late.waiting.inputs[0]!.openedAt)).toBe(3_600_000);
      expect(await openInputs(server)).toEqual([...waiting.inputs, ...late.waiting.inputs]);

      const first = await call<GatedReply>(server, 'POST', `/api/inputs/${approved.gateId}`, { value: 'yes' });
      expect(first.status, JSON.stringify(first.json)).toBe(200);
      expect(first.json.status).toBe('waiting');
      expect(first.json.inputs).toEqual([amount]);
      const before = await gatedSession(server, sessionId);
      expect(await openInputs(server)).toEqual([amount, ...late.waiting.inputs]);
      // Killed before the deadline: it passes while no process runs.
      expect(Date.now()).toBeLessThan(deadline);
      await crash(server);

      // On disk, read directly: still waiting, both gates open, no timeout journaled.
      const store = await createPgliteStore({ dataDir: dir });
      try {
        expect((await store.listInputs({ sessionId: late.sessionId })).map((g) => g.gateId)).toEqual(late.waiting.inputs.map((g) => g.gateId));
        expect(await store.history(late.sessionId)).toHaveLength(1 + REFUND_TURNS.length);
        // The hour passes while no process runs: the gates' deadline, as stored, is now behind us.
        await store.sql!.query("UPDATE gateflow_inputs SET deadline = now() - interval '1 second' WHERE session_id = $1", [late.sessionId]);
      } finally {
        await store.close();
      }

      server = await startServe(dir, {}, args);
      // The server sweeps the store for due deadlines (at start, then every second): that session takes the timeout edge.
      let s = await gatedSession(server, late.sessionId);
      for (const until = Date.now() + PATIENCE_MS; s.reply.status === 'waiting' && Date.now() < until; s = await gatedSession(server, late.sessionId))
        await new Promise((r) => setTimeout(r, 100));
      expect(s.reply.message).toContain(TAKES_OVER);
      expect(s.reply).toMatchObject({ state: 'person_takes_over', inputs: [], completion: { isComplete: true } });
      expect(timeouts(s).map((e) => e.turn)).toEqual([{ timeout: late.waiting.inputs.map((g) => g.gateId) }]);
      expect(s.history).toHaveLength(1 + REFUND_TURNS.length + 1);
      expect(chatTurns(s)).toEqual(REFUND_TURNS);
      const tooLate = await call<{ error: { code: string } }>(server, 'POST', `/api/inputs/${late.waiting.inputs[1]!.gateId}`, { value: '150' });
      expect(tooLate.status).toBe(409);
      expect(tooLate.json.error.code).toBe('input_closed');

      // The same gate, same id, same deadline; the answered one is not back (and the timed-out ones are gone).
      expect(await openInputs(server)).toEqual([amount]);
      const restored = await gatedSession(server, sessionId);
      expect(restored).toEqual(before);
      expect(restored.reply).toEqual(first.json);
      const again = await call<{ error: { code: string } }>(server, 'POST', `/api/inputs/${approved.gateId}`, { value: 'no' });
      expect(again.status).toBe(409);
      expect(again.json.error.code).toBe('input_closed');

      const last = await call<GatedReply>(server, 'POST', `/api/inputs/${amount.gateId}`, { value: '150' });
      expect(last.status, JSON.stringify(last.json)).toBe(200);
      expect(last.json.message).toContain(APPROVED);
      expect(last.json).toMatchObject({ status: 'done', inputs: [], state: 'approved', completion: { isComplete: true, reason: 'completed' } });
      expect(last.json.answers).toMatchObject({ order_number: { value: 'AB1234' }, amount: { value: 150 }, reason: { value: 'damaged' } });
      expect(await openInputs(server)).toEqual([]);

      const finished = await gatedSession(server, sessionId);
      expect(finished.history.map((e) => e.turn)).toEqual([
        null,
        ...REFUND_TURNS,
        { input: approved.gateId, name: 'approved', value: true, by: null },
        { input: amount.gateId, name: 'approved_amount', value: 150, by: null },
      ]);
      // What was journaled before the kill is there unchanged, once.
      expect(finished.history.slice(0, before.history.length)).toEqual(before.history);
      expect(chatTurns(finished)).toEqual(REFUND_TURNS);

      // Killed and restarted once more: the restarted server sweeps at once, and finds nothing due: still one timeout.
      await crash(server);
      server = await startServe(dir, {}, args);
      const final = await gatedSession(server, late.sessionId);
      expect(final).toEqual(s);
      expect(timeouts(final)).toHaveLength(1);
      expect(await gatedSession(server, sessionId)).toEqual(finished);
      // Stopped gracefully, it waits for that first sweep to end (not for a guessed time): then the journal on disk is unchanged.
      await stopProcess(server.child, 'SIGTERM');
      expect(server.child.exitCode).toBe(0);
      children.delete(server.child);
      const reopened = await createPgliteStore({ dataDir: dir });
      try {
        const journal = await reopened.history(late.sessionId);
        expect(journal.map((e) => e.reply)).toEqual(s.history.map((e) => e.reply));
        expect(journal.filter((e) => e.turn !== null && 'timeout' in e.turn)).toHaveLength(1);
      } finally {
        await reopened.close();
      }
    },
  );
});
