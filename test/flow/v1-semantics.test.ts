/**
 * The behaviour of v1 flow documents, on small fixture flows written here and
 * on the example flows in machines/flows: constraints, the pending question
 * tracked by node id (not by its prompt), persistence mid-flow, and host
 * context in guards. What one node kind does (typed and optional questions,
 * decisions, actions, subgraph calls, path nodes) is in ./nodes/<kind>.test.ts.
 *
 * Machines are driven as raw actors (`actor.on('*')` collects the trace
 * events) or through `startConversation` when the reply matters.
 */
import { describe, expect, it } from 'vitest';
import { fromPromise, type AnyActorLogic, type StateValue } from 'xstate';
import type { FlowContext } from '../../src/flow/context.js';
import { parseFlowValue } from '../../src/flow/parse.js';
import type { FlowDocument, FlowDocumentInput } from '../../src/flow/schema.js';
import { restoreConversation, startConversation, type PersistedConversation } from '../../src/flow/conversation.js';
import type { Reply } from '../../src/flow/reply.js';
import type { Turn } from '../../src/workflow/turn.js';
import { NESTED, drive, example, flow, ofType, roundTrip } from './helpers.js';

// The helpers (drive, ofType, example, flow, roundTrip, TODAY) and the NESTED fixture are in ./helpers.ts, shared with ./nodes/.

// ---------------------------------------------------------------- constraints

describe('constraints', () => {
  it('exclusive one-of: once the email is given, the phone is not asked', async () => {
    const f = await drive(example('contact-request'));
    await f.text('Ann');
    const events = await f.text('ann@example.com');
    expect(f.value).toEqual({ review: 'reviewing' });
    expect(ofType(events, 'answer.skipped')).toEqual([{ type: 'answer.skipped', node: 'phone', key: 'phone', reason: 'exclusive' }]);
    expect(f.context.answers.phone).toBeUndefined();
  });

  it('exclusive one-of: skipping the email asks for the phone', async () => {
    const f = await drive(example('contact-request'));
    await f.text('Ann');
    await f.button('skip');
    expect(f.value).toEqual({ phone: 'asking' });
    await f.text('(555) 010-2233');
    expect(f.value).toEqual({ review: 'reviewing' });
    // The flow's phone numbers are US ones: stored with the calling code.
    expect(f.answers).toEqual({ name: 'Ann', phone: '+15550102233' });
  });

  it('an enforced constraint sends the flow back to its fallback with its message, before the confirmation', async () => {
    const c = startConversation(example('contact-request'));
    await c.send({ text: 'Ann' });
    await c.send({ button: 'skip' });
    const back = await c.send({ button: 'skip' });
    expect(back.state).toEqual({ email: 'asking' });
    expect(back.message).toBe(
      'We need an email address or a phone number to reach you.\n\nWhat email address can we reach you at? (You can skip this and give a phone number instead.)',
    );
    expect(back.completion.reason).toBe('awaiting_answer');
    const review = await c.send({ text: 'ann@example.com' });
    expect(review.state).toEqual({ review: 'reviewing' });
    expect((await c.send({ button: 'confirm' })).completion.reason).toBe('completed');
    c.stop();
  });

  it('the constraint failure is traced, and the confirmation is never entered while it fails', async () => {
    const f = await drive(example('contact-request'));
    await f.text('Ann');
    await f.button('skip');
    const events = await f.button('skip');
    expect(ofType(events, 'constraint.failed')).toEqual([
      { type: 'constraint.failed', name: 'contact_present', message: 'We need an email address or a phone number to reach you.', fallback: 'email' },
    ]);
    expect(events.some((e) => e.type === 'node.enter' && e.node === 'review')).toBe(false);
  });

  const GIFT = (enforced: boolean): FlowDocumentInput => ({
    id: 'gift',
    version: 1,
    nodes: [
      { kind: 'question', id: 'qty', prompt: 'How many boxes?', answer: { type: 'number', integer: true, min: 1 } },
      { kind: 'question', id: 'wrap', prompt: 'Gift wrap?', answer: { type: 'boolean' } },
      ...(enforced
        ? []
        : [
            { kind: 'decision' as const, id: 'check' },
            { kind: 'terminal' as const, id: 'sorry', outcome: 'stopped' as const },
          ]),
      { kind: 'terminal', id: 'done', outcome: 'completed', message: 'Ordered.' },
    ],
    edges: enforced
      ? [
          { from: 'qty', to: 'wrap' },
          { from: 'wrap', to: 'done' },
        ]
      : [
          { from: 'qty', to: 'wrap' },
          { from: 'wrap', to: 'check' },
          { from: 'check', to: 'done', guard: 'constraints.pairs' },
          { from: 'check', to: 'sorry', guard: 'else' },
        ],
    constraints: [
      {
        name: 'pairs',
        check: '!answers.wrap || answers.qty >= 2.0',
        message: 'Gift wrap comes for two boxes or more.',
        ...(enforced && { fallback: 'qty' }),
      },
    ],
  });

  it('an enforced constraint also guards a completed terminal', async () => {
    const c = startConversation(flow(GIFT(true)));
    await c.send({ text: '1' });
    const back = await c.send({ text: 'yes' });
    expect(back.state).toEqual({ qty: 'asking' });
    expect(back.message).toBe('Gift wrap comes for two boxes or more.\n\nHow many boxes?');
    expect(back.completion.isComplete).toBe(false);
    await c.send({ text: '3' });
    const done = await c.send({ text: 'yes' });
    expect(done.state).toBe('done');
    expect(done.message).toBe('Ordered.');
  });

  it('constraints.<name> is readable in guards', async () => {
    const small = await drive(GIFT(false));
    await small.text('1');
    const events = await small.text('yes');
    expect(small.output).toMatchObject({ terminal: 'sorry' });
    expect(ofType(events, 'guard.evaluated').find((e) => e.node === 'check')!.guards).toEqual([
      { guard: 'constraints.pairs', result: false },
      { guard: 'else', result: true },
    ]);
    const big = await drive(GIFT(false));
    await big.text('2');
    await big.text('yes');
    expect(big.output).toMatchObject({ terminal: 'done' });
    const unwrapped = await drive(GIFT(false));
    await unwrapped.text('1');
    await unwrapped.text('no');
    expect(unwrapped.output).toMatchObject({ terminal: 'done' });
  });
});

describe('enforced constraints: where the checks apply', () => {
  // Regression (found by these tests, fixed): (src/flow/compile.ts `route`): an edge into a confirmation or a
  // completed/handoff terminal is left unchecked when the node it leaves is
  // the fallback of ANY enforced constraint (`enforced.some((c) => c.fallback
  // === p.node.id)`), so:
  //  (a) when the fallback is the node right before the confirmation, the
  //      constraint is never enforced;
  //  (b) with two enforced constraints, leaving the fallback of one skips the
  //      check of the other as well.
  // The schema promises: "a confirmation, or a completed or handoff terminal,
  // of the main flow is not entered while it fails".
  it('(a) the fallback right before the confirmation: the confirmation is not entered while the constraint fails', async () => {
    const doc = structuredClone(example('contact-request'));
    doc.constraints![0]!.fallback = 'phone';
    const f = await drive(doc);
    await f.text('Ann');
    await f.button('skip');
    const events = await f.button('skip');
    // Neither an email nor a phone: contact_present fails.
    expect(Object.keys(f.context.answers)).toEqual(['name']);
    expect(f.value).not.toBe('review');
    expect(f.value).toEqual({ phone: 'asking' });
    expect(ofType(events, 'constraint.failed').map((e) => e.name)).toEqual(['contact_present']);
  });

  it("(b) leaving one constraint's fallback still checks the other constraints", async () => {
    const doc = structuredClone(example('contact-request'));
    // contact_present falls back to `phone`, right before the review; full_name to `name`.
    doc.constraints![0]!.fallback = 'phone';
    doc.constraints!.push({ name: 'full_name', exclusive: false, check: 'size(answers.name) >= 3', message: 'Your full name, please.', fallback: 'name' });
    const f = await drive(parseFlowValue(doc));
    await f.text('Al');
    const events = await f.text('al@example.com');
    // The contact is there (phone skipped as exclusive), but the name is too short.
    expect(ofType(events, 'constraint.failed').map((e) => e.name)).toEqual(['full_name']);
    expect(f.value).toEqual({ name: 'asking' });
  });

  // Regression (found by these tests, fixed): (src/flow/compile.ts recordConstraint + src/runtime/build-reply.ts):
  // a constraint whose fallback is a subgraph call sends the flow back into
  // the subgraph, but its message is kept for the place `contact` while the
  // reply is built for `contact.email`: the person is asked again without
  // being told why.
  it("a fallback on a subgraph call: the reply still says the constraint's message", async () => {
    const doc = flow({
      id: 'fallback-into-subgraph',
      version: 1,
      nodes: [
        { kind: 'subgraph', id: 'contact', ref: 'contact' },
        { kind: 'question', id: 'note', prompt: 'Anything to add?', answer: { type: 'string' } },
        { kind: 'confirmation', id: 'review' },
        { kind: 'terminal', id: 'end', outcome: 'completed' },
      ],
      edges: [
        { from: 'contact', to: 'note' },
        { from: 'note', to: 'review' },
        { from: 'review', to: 'end', on: 'confirmed' },
        { from: 'review', to: 'contact', on: 'edit' },
      ],
      subgraphs: {
        contact: {
          entry: 'email',
          nodes: [{ kind: 'question', id: 'email', prompt: 'Your email?', required: false, answer: { type: 'email' } }],
          edges: [{ from: 'email', to: '__exit__' }],
        },
      },
      constraints: [{ name: 'has_email', check: 'has(answers.email)', message: 'We need your email.', fallback: 'contact' }],
    });
    const c = startConversation(doc);
    await c.send({ button: 'skip' });
    const back = await c.send({ text: 'no' });
    expect(back.state).toEqual({ contact: { email: 'asking' } });
    expect(back.message).toBe('We need your email.\n\nYour email?');
    c.stop();
  });
});

// ---------------------------------------------------------------- pending question by node id

/** Every prompt, label, title and message reworded; the venue question (and its label) in German. */
function reworded(doc: FlowDocument): FlowDocument {
  const copy = structuredClone(doc) as FlowDocument & { subgraphs: NonNullable<FlowDocument['subgraphs']> };
  const reword = (nodes: FlowDocument['nodes']) => {
    for (const node of nodes) {
      const n = node as Record<string, unknown>;
      if (typeof n.prompt === 'string') n.prompt = `Please tell us: ${n.prompt.toLowerCase()} (reworded)`;
      if (typeof n.label === 'string') n.label = `${n.label} [v2]`;
      if (typeof n.message === 'string') n.message = `${n.message} (reworded)`;
      if (node.kind === 'confirmation') {
        n.confirmLabel = 'Yes, send it';
        n.editLabel = 'Let me change it';
      }
    }
  };
  reword(copy.nodes);
  copy.title = 'LED sales, reworded';
  for (const sub of Object.values(copy.subgraphs)) {
    sub.title = `${sub.title ?? ''} (reworded)`;
    reword(sub.nodes);
  }
  const venue = copy.subgraphs.led_path!.nodes.find((n) => n.id === 'venue')! as { prompt: string; label?: string };
  venue.prompt = 'Wo sollen die Leuchten installiert werden?';
  venue.label = 'Einsatzort:';
  return parseFlowValue(copy, copy.id);
}

describe('the pending question is tracked by node id, not by prompt text', () => {
  it('the same conversation on a flow and on a reworded, partly translated copy: same states, answers and trace after every turn', async () => {
    const original = example('led-sales');
    const copy = reworded(original);
    // The copy really differs in every prompt.
    const prompts = (d: FlowDocument) => [...d.nodes, ...Object.values(d.subgraphs ?? {}).flatMap((s) => s.nodes)].map((n) => (n as { prompt?: string }).prompt);
    prompts(original).forEach((p, i) => {
      if (p !== undefined) expect(prompts(copy)[i]).not.toBe(p);
    });

    const priceLookup = fromPromise(async () => ({ total: 1800, fixtures: 12 }));
    const a = await drive(original, { actors: { priceLookup } });
    const b = await drive(copy, { actors: { priceLookup } });
    expect(b.trace).toEqual(a.trace);
    const turns: Turn[] = [
      { text: 'I want to buy leds' },
      { text: 'hmm' },
      { button: 'sports_court' },
      { text: 'large' },
      { text: '600' },
      { text: '5000' },
      { text: '100' },
      { text: 'not an email' },
      { text: 'me@example.com' },
      { button: 'edit' },
      { button: 'intention' },
      { text: 'support' },
      { text: 'Jo' },
      { text: '+1 555 010 2233' },
    ];
    const seen: StateValue[] = [];
    for (const turn of turns) {
      const ea = await a.send(turn);
      const eb = await b.send(turn);
      expect(b.value).toEqual(a.value);
      expect(b.context.answers).toEqual(a.context.answers);
      expect(b.context.attempts).toEqual(a.context.attempts);
      expect(eb).toEqual(ea);
      seen.push(a.value);
    }
    // The script went where it was meant to: through both subgraphs, the action, the review, an edit.
    expect(seen).toEqual([
      { led: { venue: 'asking' } },
      { led: { venue: 'asking' } },
      { led: { court_size: 'asking' } },
      { led: { court_size: 'asking' } },
      { led: { wattage: 'asking' } },
      { led: { wattage: 'asking' } },
      { led: { contact: { quote_email: 'asking' } } },
      { led: { contact: { quote_email: 'asking' } } },
      { review: 'reviewing' },
      { review: 'choosing' },
      { intent: 'asking' },
      // Support calls back: whom, and which number, first.
      { callback: { caller_name: 'asking' } },
      { callback: { callback_phone: 'asking' } },
      'support_desk',
    ]);
    expect(a.output).toEqual({ outcome: 'handoff', terminal: 'support_desk', stoppedBy: null });
  });

  it('a conversation saved on the flow continues on the reworded copy (same id and version) at the same question', async () => {
    const original = example('led-sales');
    const copy = reworded(original);
    const priceLookup = fromPromise(async () => ({ total: 25_000, fixtures: 60 }));
    const turns: Turn[] = [{ text: 'buy leds' }, { text: 'tennis' }, { text: '600' }, { text: '100' }, { text: 'me@example.com' }];
    const once = startConversation(original, { sessionId: 'rewrite', actors: { priceLookup } });
    const expected: Reply[] = [];
    for (const t of turns) expected.push(await once.send(t));

    const before = startConversation(original, { sessionId: 'rewrite', actors: { priceLookup } });
    for (const t of turns.slice(0, 2)) await before.send(t);
    const stored = roundTrip(before.persist());
    before.stop();
    // What is stored names nodes, never prompts.
    const json = JSON.stringify(stored);
    for (const n of [...original.nodes, ...Object.values(original.subgraphs ?? {}).flatMap((x) => x.nodes)])
      if ('prompt' in n && n.prompt) expect(json).not.toContain(n.prompt);
    const after = restoreConversation(copy, stored, { actors: { priceLookup } });
    expect(after.reply().state).toEqual({ led: { court_size: 'asking' } });
    expect(after.reply().message).toBe(`Please tell us: ${'How big is the court, in square metres?'.toLowerCase()} (reworded)`);
    for (const [i, t] of turns.slice(2).entries()) {
      const reply = await after.send(t);
      expect(reply.state).toEqual(expected[i + 2]!.state);
      expect(reply.answers).toEqual(expected[i + 2]!.answers);
      expect(reply.completion).toEqual(expected[i + 2]!.completion);
    }
    expect(expected.at(-1)!.state).toBe('specialist');
    once.stop();
  });

  it('replies differ only in wording: the same buttons values and state', async () => {
    const original = example('contact-request');
    const copy = structuredClone(original);
    for (const n of copy.nodes) if ('prompt' in n && n.prompt) n.prompt = `¿${n.prompt}? (es)`;
    const turns: Turn[] = [{ text: 'Ann' }, { button: 'skip' }, { text: 'nope' }, { text: '0612345678' }, { button: 'confirm' }];
    const a = startConversation(original, { sessionId: 's' });
    const b = startConversation(parseFlowValue(copy), { sessionId: 's' });
    for (const turn of turns) {
      const [ra, rb] = [await a.send(turn), await b.send(turn)];
      expect(rb.state).toEqual(ra.state);
      expect(rb.answers).toEqual(ra.answers);
      expect(rb.buttons?.map((x) => x.value)).toEqual(ra.buttons?.map((x) => x.value));
      expect(rb.completion).toEqual(ra.completion);
    }
    expect(a.done && b.done).toBe(true);
  });
});

// ---------------------------------------------------------------- persistence mid-flow

/** Runs `turns` on one conversation; and again, persisted (through JSON) and restored after `cut` turns. */
async function uninterruptedAndRestored(doc: FlowDocument, turns: Turn[], cut: number, actors?: Record<string, AnyActorLogic>) {
  const options = { sessionId: 'persisted-mid-flow', ...(actors && { actors }) };
  const once = startConversation(doc, options);
  const onceReplies: Reply[] = [];
  for (const t of turns) onceReplies.push(await once.send(t));

  const before = startConversation(doc, options);
  const restoredReplies: Reply[] = [];
  for (const t of turns.slice(0, cut)) restoredReplies.push(await before.send(t));
  const stored: PersistedConversation = roundTrip(before.persist());
  before.stop();
  const after = restoreConversation(doc, stored, actors ? { actors } : {});
  expect(after.reply()).toEqual(restoredReplies[cut - 1]);
  for (const t of turns.slice(cut)) restoredReplies.push(await after.send(t));
  return { onceReplies, restoredReplies, stored, once, after };
}

describe('persistence mid-flow', () => {
  it('inside a nested subgraph call: restored, it continues to the same end', async () => {
    const priceLookup = fromPromise(async () => ({ total: 900, fixtures: 6 }));
    const turns: Turn[] = [
      { text: 'I want to buy leds' },
      { text: 'a tennis court' },
      { text: '600' },
      { text: '100' },
      { text: 'me@example.com' },
      { button: 'confirm' },
    ];
    const { onceReplies, restoredReplies, stored, after } = await uninterruptedAndRestored(example('led-sales'), turns, 4, { priceLookup });
    expect((stored.snapshot as unknown as { value: unknown }).value).toEqual({ led: { contact: { quote_email: 'asking' } } });
    expect(restoredReplies).toEqual(onceReplies);
    expect(onceReplies.at(-2)!.state).toEqual({ review: 'reviewing' });
    expect(onceReplies.at(-1)!.completion.reason).toBe('completed');
    expect(after.done).toBe(true);
  });

  it('inside a nested subgraph, with a refused answer counted before the cut', async () => {
    const turns: Turn[] = [{ text: 'lights' }, { text: '1' }, { text: '2' }, { text: 'hmm' }, { text: 'yes' }, { text: 'b2' }, { text: 'b1' }, { text: 'done' }];
    const { onceReplies, restoredReplies, stored } = await uninterruptedAndRestored(flow(NESTED), turns, 4);
    expect((stored.snapshot as unknown as { value: unknown; context: FlowContext }).value).toEqual({ l1: { l2: { l3: { q3: 'asking' } } } });
    expect((stored.snapshot as unknown as { context: FlowContext }).context.attempts).toEqual({ 'l1.l2.l3.q3': 1 });
    expect(restoredReplies).toEqual(onceReplies);
    expect(onceReplies.at(-1)!.state).toBe('end');
  });

  it('while a path node waits for path selection to lock: the votes so far are kept', async () => {
    const turns: Turn[] = [{ text: 'we have a tennis court' }, { text: 'it is for the club' }, { text: 'padel and tennis' }, { text: '800' }];
    const { onceReplies, restoredReplies, stored } = await uninterruptedAndRestored(example('lighting-consult'), turns, 1);
    expect((stored.snapshot as unknown as { value: unknown }).value).toEqual({ project: 'waiting' });
    expect((stored.snapshot as unknown as { context: FlowContext }).context.path).toEqual({
      tentative: 'sports',
      locked: null,
      votes: { home: 0, sports: 1 },
      last: { path: 'sports', outcome: 'voted' },
    });
    expect(restoredReplies).toEqual(onceReplies);
    // Locked after the third consistent vote, not later: the restored votes counted.
    expect(onceReplies.map((r) => r.state)).toEqual([{ project: 'waiting' }, { project: 'waiting' }, { area: 'asking' }, { sports_call: { name: 'asking' } }]);
  });
});


// ---------------------------------------------------------------- host context

const CHANNEL: FlowDocumentInput = {
  id: 'channel',
  version: 1,
  nodes: [
    { kind: 'decision', id: 'by_channel' },
    { kind: 'question', id: 'call_time', prompt: 'When may we call?', answer: { type: 'string' } },
    { kind: 'question', id: 'email', prompt: 'Your email?', answer: { type: 'email' } },
    { kind: 'terminal', id: 'end', outcome: 'completed' },
  ],
  edges: [
    { from: 'by_channel', to: 'call_time', guard: "has(context.channel) && context.channel == 'phone'" },
    { from: 'by_channel', to: 'email', guard: 'else' },
    { from: 'call_time', to: 'end' },
    { from: 'email', to: 'end' },
  ],
};

describe('host context', () => {
  it('startConversation(flow, { context }) makes context.* readable in guards', async () => {
    const phone = startConversation(flow(CHANNEL), { context: { channel: 'phone' } });
    expect(phone.reply().state).toEqual({ call_time: 'asking' });
    const web = startConversation(flow(CHANNEL), { context: { channel: 'web' } });
    expect(web.reply().state).toEqual({ email: 'asking' });
    const none = startConversation(flow(CHANNEL));
    expect(none.reply().state).toEqual({ email: 'asking' });
    for (const c of [phone, web, none]) c.stop();
  });

  it('a restored conversation keeps the context it started with', async () => {
    const phone = startConversation(flow(CHANNEL), { context: { channel: 'phone' } });
    const stored = roundTrip(phone.persist());
    phone.stop();
    const restored = restoreConversation(flow(CHANNEL), stored);
    expect(restored.reply().state).toEqual({ call_time: 'asking' });
    expect((stored.snapshot as unknown as { context: FlowContext }).context.host).toEqual({ channel: 'phone' });
    restored.stop();
  });

  it('the trace shows the guard on context that was tried', async () => {
    const f = await drive(CHANNEL, { input: { context: { channel: 'phone' } } });
    expect(ofType(f.trace, 'guard.evaluated')).toEqual([
      {
        type: 'guard.evaluated',
        node: 'by_channel',
        outcome: 'next',
        guards: [{ guard: "has(context.channel) && context.channel == 'phone'", result: true }],
        target: 'call_time',
      },
    ]);
  });
});
