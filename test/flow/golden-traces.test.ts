/**
 * Golden traces (seed P5): scripted conversations over every example flow in
 * machines/flows, with the trace events the compiled machine emits
 * (node.enter/exit, guard.evaluated, answer.committed/skipped,
 * validation.failed, action.done/failed, constraint.failed, path.vote) stored
 * per turn in test/flow/__traces__/<flow>.<script>.json.
 *
 * Each golden was read and checked against the flow's semantics when it was
 * written; each test also asserts the few facts it is about, so a reader sees
 * what it checks without opening the JSON. Regenerate with
 * `npx vitest run test/flow/golden-traces.test.ts -u` and read the diff.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor, type AnyActorLogic, type StateValue } from 'xstate';
import { BUSY_TAG, compileFlow, type ActionInput } from '../../src/flow/compile.js';
import type { Answer } from '../../src/flow/context.js';
import { parseFlowText } from '../../src/flow/parse.js';
import type { FlowDocument } from '../../src/flow/schema.js';
import type { FlowTraceEvent } from '../../src/flow/trace.js';
import { defaultTurnEvent as turnToEvent } from '../../src/workflow/define.js';
import type { Turn } from '../../src/workflow/turn.js';
import { PATIENCE_MS } from '../helpers/patience.js';

const flowsDir = fileURLToPath(new URL('../../machines/flows/', import.meta.url));
const load = (name: string): FlowDocument => parseFlowText(readFileSync(`${flowsDir}${name}.json`, 'utf8'), `${name}.json`);

/** Today for every script: date answers ("today", "tomorrow", `min: "today"`) do not depend on the clock. */
const TODAY = new Date('2026-11-21T12:00:00Z');

const text = (t: string): Turn => ({ text: t });
const button = (b: string): Turn => ({ button: b });

interface Step {
  /** The turn sent, or "start" for what happens when the actor starts. */
  turn: Turn | 'start';
  events: FlowTraceEvent[];
  /** The machine's state value once the turn has settled. */
  state: StateValue;
}

interface Trace {
  flow: string;
  script: string;
  steps: Step[];
  /** What each action actor was called with, in order. */
  actionCalls: ActionInput[];
  final: { status: string; state: StateValue; output: unknown; answers: Record<string, Answer> };
}

/**
 * Runs a script on `compileFlow(doc, { today, actors })` and collects every
 * emitted event per turn. A turn settles when no invoked actor runs, in the
 * flow or in its path selection (whose vote may still move the flow on), as
 * `startConversation` waits.
 */
async function runScript(flow: FlowDocument, script: string, turns: Turn[], actors: Record<string, AnyActorLogic> = {}): Promise<Trace> {
  recordedCalls.length = 0;
  const machine = compileFlow(flow, { today: () => TODAY, actors });
  const actor = createActor(machine);
  let events: FlowTraceEvent[] = [];
  actor.on('*', (e) => events.push(e));
  const settle = async () => {
    for (;;) {
      const s = await waitFor(actor, (x) => x.status !== 'active' || !x.hasTag(BUSY_TAG), { timeout: PATIENCE_MS });
      if (s.status === 'error') throw s.error;
      const paths = s.status === 'active' ? s.children.paths : undefined;
      if (!paths || !paths.getSnapshot().hasTag(BUSY_TAG)) return s;
      await waitFor(paths, (p) => !p.hasTag(BUSY_TAG), { timeout: PATIENCE_MS });
    }
  };
  const steps: Step[] = [];
  const record = async (turn: Turn | 'start') => {
    await settle();
    steps.push({ turn, events, state: actor.getSnapshot().value });
    events = [];
  };
  actor.start();
  await record('start');
  for (const turn of turns) {
    if (actor.getSnapshot().status !== 'active') throw new Error(`script "${script}": ${JSON.stringify(turn)} was sent after the flow ended`);
    actor.send(turnToEvent(turn));
    await record(turn);
  }
  const end = actor.getSnapshot();
  actor.stop();
  return {
    flow: flow.id,
    script,
    steps,
    actionCalls: recordedCalls.splice(0),
    final: { status: end.status, state: end.value, output: end.output ?? null, answers: end.context.answers },
  };
}

const recordedCalls: ActionInput[] = [];
/** A `priceLookup` that records its input and answers with `output(input)`, or fails with `error`. */
const priceLookup = (answer: { output: (input: ActionInput) => unknown } | { error: string }) =>
  fromPromise<unknown, ActionInput>(async ({ input }) => {
    recordedCalls.push(input);
    if ('error' in answer) throw new Error(answer.error);
    return answer.output(input);
  });
/** Deterministic: one fixture per 25 m² (at least 4), at 0.5 EUR per watt. */
const pricing = (input: ActionInput) => {
  const area = typeof input.answers.court_size === 'number' ? input.answers.court_size : 200;
  const watts = typeof input.answers.wattage === 'number' ? input.answers.wattage : 100;
  const fixtures = Math.max(4, Math.ceil(area / 25));
  return { total: fixtures * watts * 0.5, fixtures, currency: input.params.currency };
};

const golden = async (trace: Trace) =>
  expect(JSON.stringify(trace, null, 2) + '\n').toMatchFileSnapshot(`./__traces__/${trace.flow}.${trace.script}.json`);

// ---------------------------------------------------------------- helpers to state key facts

const all = (trace: Trace) => trace.steps.flatMap((s) => s.events);
const ofType = <T extends FlowTraceEvent['type']>(trace: Trace, type: T) =>
  all(trace).filter((e): e is Extract<FlowTraceEvent, { type: T }> => e.type === type);
const entered = (trace: Trace) => ofType(trace, 'node.enter').map((e) => e.node);
const guardsAt = (trace: Trace, node: string) => ofType(trace, 'guard.evaluated').filter((e) => e.node === node);
const committed = (trace: Trace) => Object.fromEntries(ofType(trace, 'answer.committed').map((e) => [e.key, e.value]));
const valueOf = (trace: Trace) => Object.fromEntries(Object.entries(trace.final.answers).map(([k, a]) => [k, a.value]));

/**
 * What every trace must show, whatever the flow: enters and exits nest; a
 * guard group lists the guards tried up to the one taken, which is last and
 * the only true one; and the node entered next is the target it names
 * (`targets: false` for a trace where that is known to be wrong, see the bugs below).
 */
function wellFormed(trace: Trace, { targets = true } = {}) {
  const open: string[] = [];
  const events = all(trace);
  events.forEach((e, i) => {
    if (e.type === 'node.enter') open.push(e.node);
    if (e.type === 'node.exit') expect(open.pop(), `exit of ${e.node}`).toBe(e.node);
    if (e.type === 'guard.evaluated') {
      expect(e.guards.at(-1)!.result, `${e.node} on ${e.outcome}: the last guard listed is the one taken`).toBe(true);
      expect(e.guards.slice(0, -1).every((g) => !g.result), `${e.node} on ${e.outcome}: no earlier guard held`).toBe(true);
      const next = events.slice(i + 1).find((x) => x.type === 'node.enter' || x.type === 'guard.evaluated');
      if (targets && !e.target.endsWith('__exit__'))
        expect(next, `${e.node} on ${e.outcome}: the node entered next is the target`).toMatchObject({ type: 'node.enter', node: e.target });
    }
  });
  if (trace.final.status === 'done') {
    // XState exits the final state when the actor stops: the terminal is the last node left.
    expect(open).toEqual([]);
    expect(events.at(-1)).toMatchObject({ type: 'node.exit', kind: 'terminal', node: (trace.final.output as { terminal: string }).terminal });
  } else {
    expect(open.length).toBeGreaterThan(0);
  }
}

// ---------------------------------------------------------------- led-sales

describe('golden traces: led-sales (subgraphs, action, decision)', () => {
  const flow = load('led-sales');

  it('buys for a padel court: the price lookup succeeds, a small order goes to review and the quote is sent', async () => {
    const trace = await runScript(
      flow,
      'small-order-quoted',
      [text('I want to buy new LED lights'), text('a padel court'), text('800'), text('500'), text('coach@club.example'), button('Send me the quote')],
      { priceLookup: priceLookup({ output: pricing }) },
    );
    wellFormed(trace);
    expect(entered(trace)).toEqual([
      'intent', 'led', 'led.venue', 'led.court_size', 'led.wattage', 'led.contact', 'led.contact.quote_email', 'quote', 'order_size', 'review', 'quote_sent',
    ]);
    // The action is given the answers as plain values and its params; 32 fixtures × 500 W × 0.5 = 8000.
    expect(trace.actionCalls).toEqual([
      { node: 'quote', actor: 'priceLookup', params: { currency: 'EUR' }, answers: { intention: 'buy_led', venue: 'sports_court', court_size: 800, wattage: 500, quote_email: 'coach@club.example' }, context: {} },
    ]);
    expect(ofType(trace, 'action.done')).toEqual([{ type: 'action.done', node: 'quote', actor: 'priceLookup', assigned: ['quote_total', 'fixtures'] }]);
    expect(guardsAt(trace, 'order_size')).toEqual([
      {
        type: 'guard.evaluated', node: 'order_size', outcome: 'next', target: 'review',
        guards: [{ guard: 'answers.fixtures > 40.0 || answers.quote_total > 20000.0', result: false }, { guard: 'else', result: true }],
      },
    ]);
    expect(trace.final.output).toEqual({ outcome: 'completed', terminal: 'quote_sent', stoppedBy: null });
    await golden(trace);
  });

  it('refuses out-of-range, fractional and over-bright answers, then hands a large order to a specialist', async () => {
    const trace = await runScript(
      flow,
      'large-order-specialist',
      [
        button('buy_led'),
        button('sports_court'),
        text('20'), // below min 50
        text('it is quite large'), // no number
        text('100'),
        text('12.5'), // not a whole number
        text('600'), // the validator: at most 5 W per m² of court
        text('450'),
        text('team@arena.example'),
      ],
      { priceLookup: priceLookup({ output: () => ({ total: 24500, fixtures: 12 }) }) },
    );
    wellFormed(trace);
    expect(ofType(trace, 'validation.failed').map((e) => [e.node, e.attempt, e.message])).toEqual([
      ['led.court_size', 1, 'The number must be at least 50 m².'],
      ['led.court_size', 2, 'I could not find a number in your answer.'],
      ['led.wattage', 1, 'Please answer with a whole number.'],
      // (The author's text: `{answers.court_size}` is filled in when the reply shows it.)
      ['led.wattage', 2, 'That is more light than a court of {answers.court_size} needs: each fixture may have at most 5 W per square metre of court.'],
    ]);
    expect(committed(trace)).toMatchObject({ court_size: 100, wattage: 450 });
    // An action's values are stored as answers (source "action") and named by action.done, not answer.committed.
    expect(ofType(trace, 'action.done').map((e) => e.assigned)).toEqual([['quote_total', 'fixtures']]);
    expect(valueOf(trace)).toMatchObject({ quote_total: 24500, fixtures: 12 });
    // The first guard holds on the total alone.
    expect(guardsAt(trace, 'order_size').map((e) => [e.guards, e.target])).toEqual([
      [[{ guard: 'answers.fixtures > 40.0 || answers.quote_total > 20000.0', result: true }], 'specialist'],
    ]);
    expect(trace.final.output).toEqual({ outcome: 'handoff', terminal: 'specialist', stoppedBy: null });
    await golden(trace);
  });

  it('a warehouse skips the court size; the wattage gives up after three failures, the email is still asked, and the failed price lookup hands off', async () => {
    const trace = await runScript(
      flow,
      'warehouse-lookup-fails',
      [text('we need a quote for new lights'), text('our warehouse'), text('10'), text('maybe 300?'), text('3000'), text('ops@depot.example')],
      { priceLookup: priceLookup({ error: 'pricing service unavailable (503)' }) },
    );
    wellFormed(trace);
    expect(ofType(trace, 'answer.skipped')).toEqual([{ type: 'answer.skipped', node: 'led.court_size', key: 'court_size', reason: 'not_applicable' }]);
    expect(ofType(trace, 'validation.failed').map((e) => `${e.attempt}/${e.maxAttempts}`)).toEqual(['1/3', '2/3', '3/3']);
    // The invalid edge goes on to the contact details (the specialist writes to them); the action still runs, and fails.
    expect(guardsAt(trace, 'led.wattage').map((e) => [e.outcome, e.target])).toEqual([['invalid', 'led.contact']]);
    expect(ofType(trace, 'action.failed')).toEqual([
      { type: 'action.failed', node: 'quote', actor: 'priceLookup', message: 'pricing service unavailable (503)' },
    ]);
    expect(valueOf(trace)).toEqual({ intention: 'buy_led', venue: 'warehouse', quote_email: 'ops@depot.example' });
    expect(trace.final.output).toEqual({ outcome: 'handoff', terminal: 'project_specialist', stoppedBy: null });
    await golden(trace);
  });

  it('support calls back: the callback subflow asks whom and which number first, and refuses a number too short for its country', async () => {
    const trace = await runScript(flow, 'support-callback', [
      button('support'),
      text("hi, I'm sam lee"), // the name without the greeting
      text('+44 20 7946'), // too short for a UK number
      text('+44 20 7946 0958'),
    ]);
    wellFormed(trace);
    expect(entered(trace)).toEqual(['intent', 'callback', 'callback.caller_name', 'callback.callback_phone', 'support_desk']);
    expect(ofType(trace, 'validation.failed').map((e) => [e.node, e.message])).toEqual([
      ['callback.callback_phone', 'That number has 6 digits after +44, but a UK phone number has 9 to 10. Please check it.'],
    ]);
    expect(valueOf(trace)).toEqual({ intention: 'support', caller_name: 'Sam Lee', callback_phone: '+442079460958' });
    expect(trace.final.output).toEqual({ outcome: 'handoff', terminal: 'support_desk', stoppedBy: null });
    await golden(trace);
  });
});

// ---------------------------------------------------------------- contact-request

describe('golden traces: contact-request (exclusive one-of, enforced constraint)', () => {
  const flow = load('contact-request');
  const neitherThenPhone = [
    text('Grace Hopper'),
    button('skip'),
    text('call me maybe'),
    text('skip'),
    text('skip'),
    text('+1 555 0100 200'),
    button('confirm'),
  ];

  it('an email makes the phone question pass by; the request is sent', async () => {
    const trace = await runScript(flow, 'email-only', [text('Ada Lovelace'), text('ada@example.com'), text('looks good')]);
    wellFormed(trace);
    expect(ofType(trace, 'answer.skipped')).toEqual([{ type: 'answer.skipped', node: 'phone', key: 'phone', reason: 'exclusive' }]);
    expect(entered(trace)).toEqual(['name', 'email', 'phone', 'review', 'sent']);
    expect(valueOf(trace)).toEqual({ name: 'Ada Lovelace', email: 'ada@example.com' });
    await golden(trace);
  });

  it('skipping both sends the person back to the email with the constraint message; a phone number then satisfies it', async () => {
    const trace = await runScript(flow, 'neither-then-phone', neitherThenPhone);
    wellFormed(trace, { targets: false }); // see the bug below
    expect(ofType(trace, 'validation.failed').map((e) => [e.node, e.message])).toEqual([['phone', 'I could not find a phone number in your answer.']]);
    expect(ofType(trace, 'constraint.failed')).toEqual([
      { type: 'constraint.failed', name: 'contact_present', message: 'We need an email address or a phone number to reach you.', fallback: 'email' },
    ]);
    expect(entered(trace)).toEqual(['name', 'email', 'phone', 'email', 'phone', 'review', 'sent']);
    expect(valueOf(trace)).toEqual({ name: 'Grace Hopper', phone: '+15550100200' });
  });

  // Regression (found writing these traces, fixed): when an enforced constraint
  // sends the flow to its fallback, the trace names the node entered, not the edge's target.
  it('guard.evaluated names the fallback as target when the constraint sends the flow there (golden)', async () => {
    const trace = await runScript(flow, 'neither-then-phone', neitherThenPhone);
    const failedAt = trace.steps.findIndex((s) => s.events.some((e) => e.type === 'constraint.failed'));
    const routed = trace.steps[failedAt]!.events.find((e) => e.type === 'guard.evaluated');
    expect(routed).toMatchObject({ node: 'phone', target: 'email' });
    wellFormed(trace);
    await golden(trace);
  });

  it('a greeting is not part of the name; a phone number given where the email is asked answers the phone question', async () => {
    const trace = await runScript(flow, 'phone-at-email', [text("hi, I'm jane doe"), text('you can call me on 555 010 2233'), button('confirm')]);
    wellFormed(trace);
    expect(ofType(trace, 'answer.committed').map((e) => [e.node, e.key, e.value])).toEqual([
      ['name', 'name', 'Jane Doe'],
      ['email', 'phone', '+15550102233'],
    ]);
    // The email question is passed by (its group has an answer), and so is the phone question (answered already).
    expect(ofType(trace, 'answer.skipped').map((e) => [e.node, e.reason])).toEqual([
      ['email', 'exclusive'],
      ['phone', 'answered'],
    ]);
    expect(entered(trace)).toEqual(['name', 'email', 'phone', 'review', 'sent']);
    expect(trace.final.output).toEqual({ outcome: 'completed', terminal: 'sent', stoppedBy: null });
    await golden(trace);
  });

  // Regression (found writing these traces, fixed): editing clears only the
  // answers the flow asks again from the edit edge's target; the name stays.
  it('editing from the review keeps the name, which is not asked again', async () => {
    const trace = await runScript(flow, 'edit-keeps-name', [
      text('Ada Lovelace'),
      text('ada@example.com'),
      button('edit'),
      text('ada@lovelace.example'),
      button('confirm'),
    ]);
    expect(trace.final.output).toMatchObject({ terminal: 'sent' });
    expect(valueOf(trace)).toEqual({ name: 'Ada Lovelace', email: 'ada@lovelace.example' });
  });
});

// ---------------------------------------------------------------- event-booking

describe('golden traces: event-booking (validated numbers and dates, retries, fallback)', () => {
  const flow = load('event-booking');

  it('a big event is asked about catering and booked', async () => {
    const trace = await runScript(flow, 'big-event-booked', [text('80'), text('tomorrow'), button('Yes please'), text('host@example.com'), button('Book it')]);
    wellFormed(trace);
    expect(committed(trace)).toEqual({ guests: 80, event_date: '2026-11-22', catering: true, email: 'host@example.com' });
    expect(guardsAt(trace, 'size').map((e) => e.target)).toEqual(['catering']);
    expect(trace.final.output).toEqual({ outcome: 'completed', terminal: 'booked', stoppedBy: null });
    await golden(trace);
  });

  it('refused answers say why; a correction naming an answer asks it again and keeps the rest; the small event skips catering', async () => {
    const trace = await runScript(flow, 'small-event-retries-and-edit', [
      text('13'), // the validator
      text('12'),
      text('2026-11-20'), // before today
      text('2031-01-01'), // after max
      text('2026-12-24'),
      text('host@example.com'),
      text('wait, the number of guests is wrong'), // names the guests, gives no new value: asked again
      text('14'), // the date and the email are kept: the summary again
      button('confirm'),
    ]);
    wellFormed(trace);
    expect(ofType(trace, 'validation.failed').map((e) => [e.node, e.attempt, e.message])).toEqual([
      ['guests', 1, 'Our venue does not seat parties of exactly 13: please choose another number.'],
      ['event_date', 1, 'The date must be on or after 2026-11-21.'],
      ['event_date', 2, 'The date must be on or before 2030-12-31.'],
    ]);
    expect(guardsAt(trace, 'size').map((e) => e.target)).toEqual(['email', 'email']);
    expect(entered(trace).filter((n) => n === 'guests')).toHaveLength(2);
    expect(valueOf(trace)).toEqual({ guests: 14, event_date: '2026-12-24', email: 'host@example.com' });
    await golden(trace);
  });

  it('three refused guest counts take the flow fallback: a phone number for the planner who will call', async () => {
    const trace = await runScript(flow, 'guests-fallback', [text('0'), text('600'), text('no idea yet'), text('+1 555 010 2233')]);
    wellFormed(trace);
    expect(ofType(trace, 'validation.failed').map((e) => `${e.node} ${e.attempt}/${e.maxAttempts}`)).toEqual(['guests 1/3', 'guests 2/3', 'guests 3/3']);
    // No invalid edge: straight to the fallback, no guard group evaluated there.
    expect(guardsAt(trace, 'guests')).toEqual([]);
    expect(entered(trace)).toEqual(['guests', 'planner_phone', 'planner']);
    expect(valueOf(trace)).toEqual({ planner_phone: '+15550102233' });
    expect(trace.final.output).toEqual({ outcome: 'handoff', terminal: 'planner', stoppedBy: null });
    await golden(trace);
  });
});

// ---------------------------------------------------------------- lighting-consult

describe('golden traces: lighting-consult (path selection with hysteresis, real keyword chooser)', () => {
  const flow = load('lighting-consult');
  const votes = (trace: Trace) => ofType(trace, 'path.vote').map((v) => [v.path, v.outcome, v.tentative, v.locked]);

  it('flip-flops do not lock; consistent evidence locks home; a stray message after the lock changes nothing', async () => {
    const trace = await runScript(flow, 'flip-flop-then-home', [
      text('We want lights for a tennis court'),
      text('no wait, it is for the kitchen'),
      text('the football pitch actually'),
      text('sorry, the bedroom'),
      text('and the living room'),
      text('plus the garden'),
      text('it is also for my padel club'), // after the lock, at the rooms question
      text('4'),
      text('me@home.example'), // the ideas are emailed: the address first
    ]);
    wellFormed(trace);
    expect(votes(trace)).toEqual([
      ['sports', 'voted', 'sports', null],
      ['home', 'voted', 'home', null],
      ['sports', 'voted', 'sports', null],
      ['home', 'voted', 'home', null],
      ['home', 'voted', 'home', null],
      ['home', 'locked', 'home', 'home'],
      // The stray sports message at the rooms question: ignored, the votes stay as they were at the lock.
      // (The last turn's vote arrives after the flow has ended: not traced.)
      [null, 'after_lock', 'home', 'home'],
      [null, 'after_lock', 'home', 'home'],
    ]);
    const [atLock, after] = ofType(trace, 'path.vote').slice(5, 7);
    expect(after!.votes).toEqual(atLock!.votes);
    expect(atLock!.votes).toEqual({ home: 3.5, sports: 0.1875 });
    expect(guardsAt(trace, 'project').map((e) => e.target)).toEqual(['rooms']);
    expect(trace.final.output).toEqual({ outcome: 'completed', terminal: 'home_quote', stoppedBy: null });
    await golden(trace);
  });

  it('three consistent sports messages lock sports; the area is validated', async () => {
    const trace = await runScript(flow, 'sports-locks', [
      text('lights for our tennis club'),
      text('two tennis courts'),
      text('and a small football pitch'),
      text('30'),
      text('450'),
      text('Sam Lee'), // the team will call: whom, and where
      text('+44 20 7946 0958'),
    ]);
    wellFormed(trace);
    expect(votes(trace).map((v) => v[1])).toEqual(['voted', 'voted', 'locked', 'after_lock', 'after_lock', 'after_lock']);
    expect(guardsAt(trace, 'project')).toEqual([
      {
        type: 'guard.evaluated', node: 'project', outcome: 'next', target: 'area',
        guards: [{ guard: "context.path.locked == 'home'", result: false }, { guard: "context.path.locked == 'sports'", result: true }],
      },
    ]);
    expect(ofType(trace, 'validation.failed').map((e) => e.message)).toEqual(['The number must be at least 50 m².']);
    expect(trace.final.output).toEqual({ outcome: 'handoff', terminal: 'sports_team', stoppedBy: null });
    await golden(trace);
  });

  it('eight messages with no lock hand off to an advisor, who calls: the callback subflow asks whom and where', async () => {
    const trace = await runScript(flow, 'undecided-advisor', [
      text('hello'),
      text('not sure yet'),
      text('maybe the court, maybe the house'),
      text('what do you offer?'),
      text('hmm'),
      text('let me think'),
      text('ok'),
      text('still thinking'),
      text('my name is Ana de la Cruz'),
      text('+34 912 345 678'),
    ]);
    wellFormed(trace);
    expect(ofType(trace, 'path.vote').filter((v) => v.locked !== null)).toEqual([]);
    // The eighth text is the last attempt, taken once its vote is back and has locked nothing.
    expect(ofType(trace, 'path.vote').map((v) => v.outcome).slice(0, 8)).toEqual(Array(8).fill('abstained'));
    expect(trace.steps[8]!.events.map((e) => e.type)).toEqual(['node.exit', 'path.vote', 'guard.evaluated', 'node.enter', 'node.enter']);
    expect(entered(trace)).toEqual(['project', 'advisor_call', 'advisor_call.name', 'advisor_call.phone', 'advisor']);
    expect(valueOf(trace)).toEqual({ name: 'Ana de la Cruz', phone: '+34912345678' });
    expect(trace.final.output).toEqual({ outcome: 'handoff', terminal: 'advisor', stoppedBy: null });
    await golden(trace);
  });

  it('a path button is an explicit choice: it locks at once, whatever the votes so far', async () => {
    const trace = await runScript(flow, 'button-locks', [text('lights for a tennis court'), button('home'), text('3')]);
    wellFormed(trace);
    expect(votes(trace)).toEqual([
      ['sports', 'voted', 'sports', null],
      ['home', 'locked', 'home', 'home'],
      [null, 'after_lock', 'home', 'home'],
    ]);
    expect(ofType(trace, 'path.vote')[1]).toMatchObject({ turn: 2, confidence: 1, rationale: 'chosen home: an explicit choice locks at once' });
    expect(guardsAt(trace, 'project').map((e) => e.target)).toEqual(['rooms']);
    expect(entered(trace)).toEqual(['project', 'rooms', 'email']);
    await golden(trace);
  });

  // BUG: every message to a path node counts as a failed attempt before its
  // vote is known, so the message that would lock the path, if it is the
  // `maxAttempts`-th, takes the invalid edge instead: five unclear messages,
  // then three consistent ones, and the person who has just made the path
  // clear is sent to the advisor.
  it('the message that locks the path on the last allowed attempt still locks it', async () => {
    const trace = await runScript(flow, 'locks-on-last-attempt', [
      text('hello'),
      text('hmm'),
      text('let me think'),
      text('ok'),
      text('well'),
      text('it is for the kitchen'),
      text('and the bedroom'),
      text('and the living room'), // the eighth message: maxAttempts 8
    ]);
    wellFormed(trace);
    expect(ofType(trace, 'path.vote').map((v) => v.outcome)).toEqual([...Array(5).fill('abstained'), 'voted', 'voted', 'locked']);
    expect(guardsAt(trace, 'project').map((e) => [e.outcome, e.target])).toEqual([['next', 'rooms']]);
    expect(entered(trace)).toEqual(['project', 'rooms']);
    await golden(trace);
  });
});

// ---------------------------------------------------------------- patient-intake (gate config)

describe('golden traces: patient-intake (gate config)', () => {
  const flow = load('patient-intake');

  it('buttons and matched text reach the confirmation; the intake is handed off', async () => {
    const trace = await runScript(flow, 'handed-off', [
      button('Yes'),
      text('coverage lapsed'),
      text('a follow-up visit'),
      text('she is a teenager'),
      button('Patient portal'),
      button('Looks Good'),
    ]);
    wellFormed(trace);
    expect(committed(trace)).toEqual({
      '1_patient_info_availability': 'Yes',
      '2_insurance_history': 'Yes',
      '3_visit_type': 'Follow-up',
      '4_patient_age_group': 'Minor',
      '5_preferred_contact': 'Patient portal',
    });
    expect(ofType(trace, 'answer.committed').map((e) => e.source)).toEqual(['button', 'match', 'match', 'match', 'button']);
    expect(trace.final.output).toEqual({ outcome: 'handoff', terminal: 'handoff', stoppedBy: null });
    await golden(trace);
  });

  it('an emergency is a limiting value: read out of free text, it is checked once, then the intake stops', async () => {
    const trace = await runScript(flow, 'emergency-stop', [text('yes, all on file'), button('No'), text('chest pain, this is an emergency'), text('yes')]);
    wellFormed(trace);
    expect(committed(trace)['3_visit_type']).toBe('Emergency');
    expect(entered(trace).at(-1)).toBe('stopped');
    expect(trace.final.output).toEqual({ outcome: 'stopped', terminal: 'stopped', stoppedBy: '3_visit_type' });
    await golden(trace);
  });

  it('text that matches nothing is asked again; "Edit Answers" asks which answer, and only that one is asked again', async () => {
    const trace = await runScript(flow, 'not-understood-and-edit', [
      text('the weather is nice'), // the first gate: matcher only
      button('Yes'),
      text('purple'), // later gates: the no-model extractor abstains
      button('Partial'),
      button('New patient'),
      button('Adult'),
      button('Email'),
      button('Edit Answers'),
      button('1_patient_info_availability'),
      button('Yes'),
    ]);
    wellFormed(trace);
    // Not understood leaves no trace event: the turn shows only in the state.
    expect(trace.steps[1]!.events).toEqual([]);
    // Gate 1 asked again; the later gates are passed, their answers kept; the summary again.
    expect(entered(trace).filter((n) => n === '1_patient_info_availability')).toHaveLength(2);
    expect(trace.steps.at(-1)!.state).toEqual({ confirmation: 'reviewing' });
    expect(committed(trace)).toMatchObject({ '2_insurance_history': 'Partial', '3_visit_type': 'New patient', '4_patient_age_group': 'Adult', '5_preferred_contact': 'Email' });
    await golden(trace);
  });
});

// ---------------------------------------------------------------- clinic-callback

describe('golden traces: clinic-callback (flow document with a limiting value)', () => {
  const flow = load('clinic-callback');

  it('a refill callback is queued', async () => {
    const trace = await runScript(flow, 'queued', [
      text('I need a prescription refill'),
      button('No'),
      text('as soon as possible'),
      text('this is jane doe'),
      text('(555) 010-2233'),
      button('Send request'),
    ]);
    wellFormed(trace);
    expect(valueOf(trace)).toEqual({
      callback_reason: 'Prescription refill', symptoms_worse: 'No', callback_window: 'Today', patient_name: 'Jane Doe', callback_phone: '+15550102233',
    });
    expect(trace.final.output).toEqual({ outcome: 'handoff', terminal: 'queued', stoppedBy: null });
    await golden(trace);
  });

  it('worsening symptoms stop the request for the nurse line', async () => {
    const trace = await runScript(flow, 'nurse-line', [button('Billing'), text('yes')]);
    wellFormed(trace);
    expect(committed(trace)).toEqual({ callback_reason: 'Billing', symptoms_worse: 'Yes' });
    expect(trace.final.output).toEqual({ outcome: 'stopped', terminal: 'nurse_line', stoppedBy: 'symptoms_worse' });
    await golden(trace);
  });
});
