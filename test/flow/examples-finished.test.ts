/**
 * The example flows look finished (issue 11, section 4): buttons and
 * summaries show labels, never raw values; replies may name answers
 * (`{answers.<key>}`); led-sales shows its quote before sending it and states
 * the limit that sent an order to a specialist; every ending that promises a
 * call or an email has the number or the address; lighting-consult says
 * what it understood and takes a path button as a choice; contact-request
 * keeps the name without the greeting, takes a phone number at the email
 * question and refuses one too short for its country; ends say what
 * happened in the flow's words.
 */
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { fromPromise } from 'xstate';
import { EXAMPLE_ACTORS } from '../../src/cli/example-actors.js';
import { composeFlow } from '../../src/flow/compose.js';
import { startConversation } from '../../src/flow/conversation.js';
import { flowGraph } from '../../src/flow/graph.js';
import { checkPlaceholders, fillPlaceholders, plainText } from '../../src/flow/interpolate.js';
import * as messages from '../../src/flow/messages.js';
import { FlowDocumentSchema, type FlowDocument, type FlowDocumentInput, type FlowNode } from '../../src/flow/schema.js';
import { TODAY, base, example, flow, issues } from './helpers.js';

const EXAMPLES = readdirSync(fileURLToPath(new URL('../../machines/flows/', import.meta.url)))
  .filter((f) => f.endsWith('.json'))
  .map((f) => f.replace(/\.json$/, ''));

const converse = (doc: FlowDocument, actors = {}) => startConversation(doc, { today: () => TODAY, actors });
const labels = (reply: { buttons: { label: string; value: string }[] | null }) => reply.buttons?.map((b) => [b.label, b.value]);
const nodesOf = (doc: FlowDocument): FlowNode[] => [...doc.nodes, ...Object.values(doc.subgraphs ?? {}).flatMap((s) => s.nodes)];

// ---------------------------------------------------------------- labels

describe('category labels', () => {
  it('buttons show the label and send the category; the summary and the problem statement show labels', async () => {
    const c = converse(example('led-sales'), EXAMPLE_ACTORS);
    expect(labels(c.reply())).toEqual([
      ['Buy LED lights', 'buy_led'],
      ['Help with my lights', 'support'],
      ['Just looking', 'just_browsing'],
    ]);
    const venue = await c.send({ button: 'buy_led' });
    expect(venue.answers.intention!.value).toBe('buy_led');
    expect(labels(venue)).toEqual([
      ['Sports court', 'sports_court'],
      ['Warehouse', 'warehouse'],
      ['Parking lot', 'parking_lot'],
    ]);
    await c.send({ button: 'sports_court' });
    await c.send({ text: '600' });
    await c.send({ text: '300' });
    const review = await c.send({ text: 'me@example.com' });
    expect(review.completion.reason).toBe('awaiting_user_confirmation');
    expect(review.message).toContain('Need: Buy LED lights; Venue: Sports court;');
    expect(review.message).toContain('→ Buy LED lights');
    expect(review.message).not.toMatch(/buy_led|sports_court/);
    c.stop();
  });

  it('no example shows a raw value on a button: every category is written as people write, or has a label', () => {
    for (const name of EXAMPLES)
      for (const node of nodesOf(example(name)))
        if (node.kind === 'question' && node.answer.type === 'category')
          for (const category of node.answer.categories)
            expect(node.answer.labels?.[category] ?? category, `${name} ${node.id}`).not.toMatch(/_/);
  });

  it('the label, typed, says its category (the offline matcher reads it as one more synonym)', async () => {
    const plan = flow({
      id: 'plans',
      version: 1,
      nodes: [
        { kind: 'question', id: 'plan', prompt: 'Which plan?', answer: { type: 'category', categories: ['plan_a', 'plan_b'], labels: { plan_a: 'Starter kit', plan_b: 'Pro bundle' } } },
        { kind: 'terminal', id: 'end', outcome: 'completed', message: 'You chose {answers.plan}.' },
      ],
      edges: [{ from: 'plan', to: 'end' }],
    });
    const c = converse(plan);
    const end = await c.send({ text: 'the pro bundle please' });
    expect(end.answers.plan).toMatchObject({ value: 'plan_b', source: 'match' });
    expect(end.message).toBe('You chose Pro bundle.');
  });

  const labelled = (labels: Record<string, string>): FlowDocumentInput => {
    const d = base();
    d.nodes[0] = { ...d.nodes[0]!, answer: { type: 'category', categories: ['Yes', 'No'], synonyms: { No: ['nope'] }, labels } };
    return d;
  };

  it('are checked: each names a category, and none already means another category', () => {
    expect(issues(labelled({ Yes: 'Yes, we have it', No: 'No, not yet' }))).toEqual([]);
    expect(issues(labelled({ Maybe: 'Perhaps' }))).toEqual([
      { path: ['nodes', 0, 'answer', 'labels', 'Maybe'], message: 'a label is given for "Maybe", which is not one of the categories (Yes, No)', node: 'a' },
    ]);
    expect(issues(labelled({ Yes: 'nope' }))).toEqual([
      { path: ['nodes', 0, 'answer', 'labels', 'Yes'], message: 'the label "nope" already means "No"', node: 'a' },
    ]);
    expect(issues(labelled({ Yes: 'Sure', No: 'sure' }))).toEqual([
      { path: ['nodes', 0, 'answer', 'labels', 'No'], message: 'the label "sure" already means "Yes"', node: 'a' },
    ]);
  });

  it('compose by category, ignoring case: a tenant relabels one category and keeps the others', () => {
    const global = { name: 'global', level: 'global' as const, document: labelled({ Yes: 'Yes', No: 'No' }) };
    const tenant = { name: 'acme', level: 'tenant' as const, document: { nodes: [{ id: 'a', answer: { labels: { yes: 'Yes, all there' } } }] } };
    const { document } = composeFlow([global, tenant]);
    const a = document.nodes.find((n) => n.id === 'a')!;
    expect(a.kind === 'question' && a.answer.type === 'category' && a.answer.labels).toEqual({ Yes: 'Yes, all there', No: 'No' });
  });
});

// ---------------------------------------------------------------- answers in replies

describe('answers in prompts and messages ({answers.<key>})', () => {
  const small = (message: string, answer: FlowDocumentInput['nodes'][number] = { kind: 'question', id: 'who', prompt: 'Who?', answer: { type: 'string' } }): FlowDocumentInput => ({
    id: 'filled',
    version: 1,
    nodes: [answer, { kind: 'terminal', id: 'end', outcome: 'completed', message }],
    edges: [{ from: 'who', to: 'end' }],
  });

  it('are filled when the reply is built, as plain text, in one pass (a value naming an answer is not filled again)', async () => {
    const c = converse(flow(small('Thanks, {answers.who}! {not a placeholder}')));
    expect((await c.send({ text: 'Ana *bold* {answers.who}' })).message).toBe('Thanks, Ana \\*bold\\* {answers.who}! {not a placeholder}');
  });

  it('an answer not given yet is left out; numbers keep their unit, categories their label', () => {
    expect(fillPlaceholders('a {answers.x} b {answers.y}', (k) => (k === 'x' ? '1' : ''))).toBe('a 1 b ');
    expect(plainText('two\nlines  # and **stars** and a_b and `code` and [a link]')).toBe('two lines \\# and \\*\\*stars\\*\\* and a\\_b and \\`code\\` and \\[a link\\]');
  });

  it('a key no question, action or input gives is an error, with a guess; so is a placeholder written otherwise', () => {
    expect(checkPlaceholders(FlowDocumentSchema.parse(small('Thanks, {answers.wh}.')))).toEqual([
      { path: ['nodes', 1, 'message'], message: '{answers.wh} at character 8: no question, action or input gives "wh" (did you mean "who"?)', node: 'end' },
    ]);
    expect(checkPlaceholders(FlowDocumentSchema.parse(small('Thanks, {answer.who}.')))).toEqual([
      { path: ['nodes', 1, 'message'], message: '{answer.who} at character 8 is shown as written: an answer is written {answers.<key>}, such as {answers.who}', node: 'end' },
    ]);
    // Part of the flow's check: such a flow is refused.
    expect(issues(small('Thanks, {answers.wh}.')).map((i) => i.message)).toContain(
      '{answers.wh} at character 8: no question, action or input gives "wh" (did you mean "who"?)',
    );
  });

  it("fills a validator's message, and the stop message of the question that stopped the flow", async () => {
    const doc = flow({
      id: 'stops',
      version: 1,
      nodes: [
        { kind: 'question', id: 'size', prompt: 'Size?', answer: { type: 'number' } },
        { kind: 'question', id: 'n', prompt: 'How many?', answer: { type: 'number' }, validators: [{ check: 'value <= answers.size', message: 'At most {answers.size}.' }] },
        { kind: 'question', id: 'ok', prompt: 'Go on?', answer: { type: 'category', categories: ['Yes', 'No'] }, limitingValues: ['No'], stopMessage: 'Stopped at size {answers.size}.' },
        { kind: 'terminal', id: 'end', outcome: 'completed', message: 'Done.' },
        { kind: 'terminal', id: 'stop', outcome: 'stopped' },
      ],
      edges: [
        { from: 'size', to: 'n' },
        { from: 'n', to: 'ok' },
        { from: 'ok', to: 'end' },
        { from: 'ok', to: 'stop', on: 'limiting' },
      ],
    });
    const c = converse(doc);
    await c.send({ text: '12' });
    expect((await c.send({ text: '20' })).message).toBe('At most 12.\n\nHow many?');
    await c.send({ text: '10' });
    expect((await c.send({ button: 'No' })).message).toBe('Stopped at size 12.');
  });
});

// ---------------------------------------------------------------- led-sales

describe('led-sales', () => {
  const priced = (total: number, fixtures: number) => ({ priceLookup: fromPromise(async () => ({ total, fixtures, currency: 'EUR' })) });
  const toQuote = async (actors: object) => {
    const c = converse(example('led-sales'), actors);
    for (const turn of [{ button: 'buy_led' }, { button: 'sports_court' }, { text: '600' }, { text: '300' }]) await c.send(turn);
    return { c, reply: await c.send({ text: 'me@example.com' }) };
  };

  it('shows the computed quote before asking to send it; the end says where it went', async () => {
    const { c, reply } = await toQuote(EXAMPLE_ACTORS);
    // The example price: 12 fixtures (600 m² / 50) × 300 W × 0.9.
    expect(reply.message).toContain('**Your quote: 3240 EUR** for 12 fixtures of 300 W.\n\nShall we send it to me@example.com?');
    expect(labels(reply)).toEqual([
      ['Send me the quote', 'confirm'],
      ['Change something', 'edit'],
    ]);
    expect((await c.send({ button: 'confirm' })).message).toBe('Your quote for 3240 EUR is on its way to me@example.com.');
  });

  it('a large order: the limits and the real numbers, and the specialist writes to the address given', async () => {
    const { reply } = await toQuote(priced(3240, 48));
    expect(reply.message).toBe(
      'Orders of more than 40 fixtures or above 20000 EUR are planned with a lighting specialist, and yours needs 48 fixtures for 3240 EUR. The specialist will email you at me@example.com to arrange a call.',
    );
    expect(reply.completion).toEqual({ isComplete: true, reason: 'handed_off', readyForHandoff: true });
  });

  it('a court size never given still asks for the email before the specialist who will write', async () => {
    const c = converse(example('led-sales'), EXAMPLE_ACTORS);
    for (const turn of [{ button: 'buy_led' }, { button: 'sports_court' }, { text: 'big' }, { text: 'huge' }]) await c.send(turn);
    expect((await c.send({ text: 'no idea' })).message).toBe('Which email should the quote go to?');
    expect((await c.send({ text: 'me@example.com' })).message).toBe(
      'We could not price this project automatically, so a lighting specialist will email you at me@example.com to work it out with you.',
    );
  });

  it('support asks whom to call and where before promising a call', async () => {
    const c = converse(example('led-sales'), EXAMPLE_ACTORS);
    expect((await c.send({ button: 'support' })).message).toBe('Our support desk will call you. Who should they ask for?');
    expect((await c.send({ text: "hello, I'm jo ruiz" })).message).toMatch(/^What phone number should they call\?/);
    expect((await c.send({ text: '+1 555 010 2233' })).message).toBe('Our support desk will call Jo Ruiz at +15550102233 about your lights.');
  });
});

// ---------------------------------------------------------------- every promise of contact has the contact

describe('the example endings', () => {
  /** The answer keys of a flow's questions of one type. */
  const keysOfType = (doc: FlowDocument, type: string) =>
    nodesOf(doc).flatMap((n) => (n.kind === 'question' && n.answer.type === type ? [n.key ?? n.id] : []));

  it('an ending that promises a call names the phone number it will call, one that promises an email the address it writes to', () => {
    for (const name of EXAMPLES) {
      const doc = example(name);
      for (const t of flowGraph(doc).terminals) {
        const message = t.message ?? '';
        const named = [...message.matchAll(/\{answers\.(\w+)\}/g)].map((m) => m[1]!);
        if (/\bwill call\b/i.test(message)) expect(named.some((k) => keysOfType(doc, 'phone').includes(k)), `${name} ${t.id}: ${message}`).toBe(true);
        if (/\bwill (?:email|send|confirm)\b|on its way/i.test(message)) expect(named.some((k) => keysOfType(doc, 'email').includes(k)), `${name} ${t.id}: ${message}`).toBe(true);
      }
    }
  });

  it('say what happened in their own words: every end of the examples has a message, and none calls itself an intake unless it is one', () => {
    for (const name of EXAMPLES) {
      const doc = example(name);
      for (const t of flowGraph(doc).terminals) {
        // A stop on a limiting value says the question's stop message.
        const stopsOnLimiting = t.outcome === 'stopped' && nodesOf(doc).some((n) => n.kind === 'question' && n.stopMessage !== undefined);
        expect(t.message !== undefined || stopsOnLimiting, `${name} ${t.id}`).toBe(true);
        if (name !== 'patient-intake') expect(t.message ?? '', `${name} ${t.id}`).not.toMatch(/intake/i);
      }
    }
    for (const text of [messages.DEFAULT_COMPLETED_MESSAGE, messages.DEFAULT_HANDOFF_MESSAGE, messages.DEFAULT_STOP_MESSAGE]) expect(text).not.toMatch(/intake/i);
  });

  it('event-booking confirms to the address it asked for', async () => {
    const c = converse(example('event-booking'));
    for (const turn of ['12', '2026-12-24', 'host@example.com']) await c.send({ text: turn });
    expect((await c.send({ button: 'confirm' })).message).toBe('Your booking request for 12 guests on 2026-12-24 is in. We will confirm it by email to host@example.com.');
  });
});

// ---------------------------------------------------------------- lighting-consult

describe('lighting-consult', () => {
  it('says what it took from a message that votes without locking, then asks a narrower question', async () => {
    const c = converse(example('lighting-consult'));
    const prompt = c.reply().message;
    const first = await c.send({ text: 'lights for a tennis court' });
    expect(first.state).toEqual({ project: 'waiting' });
    expect(first.message).not.toBe(prompt);
    expect(first.message).toBe('That sounds like Sports lighting. Is that right? Choose "Sports lighting" below to go on, or tell me a bit more.');
    expect(labels(first)).toEqual([
      ['Home lighting', 'home'],
      ['Sports lighting', 'sports'],
    ]);
    expect((await c.send({ text: 'hmm' })).message).toBe(
      'I could not tell from that which one this is; so far it sounds like Sports lighting. Is it Home lighting or Sports lighting? Choose one below, or tell me a bit more.',
    );
    expect((await c.send({ text: 'actually my kitchen' })).message).toBe(
      'That sounds like Home lighting, but earlier it sounded like Sports lighting. Is it Home lighting or Sports lighting? Choose one below, or tell me a bit more.',
    );
    c.stop();
  });

  it('a button is an explicit choice: it locks the path at once, even against the votes so far', async () => {
    const c = converse(example('lighting-consult'));
    await c.send({ text: 'a tennis court' });
    await c.send({ text: 'for the tennis club' });
    const rooms = await c.send({ button: 'home' });
    expect(rooms.state).toEqual({ rooms: 'asking' });
    expect(rooms.message).toBe('How many rooms need new lighting?');
    await c.send({ text: '4' });
    expect((await c.send({ text: 'me@home.example' })).message).toBe('Thanks! We will email lighting ideas for your home to me@home.example.');
  });

  it('the sports team and the advisor have a name and a number before the ending promises their call', async () => {
    const c = converse(example('lighting-consult'));
    await c.send({ button: 'sports' });
    await c.send({ text: '450' });
    await c.send({ text: 'sam lee' });
    expect((await c.send({ text: '+44 20 7946 0958' })).message).toBe('Our sports lighting team will call Sam Lee at +442079460958 about lighting your 450 m² playing area.');
  });
});

// ---------------------------------------------------------------- contact-request

describe('contact-request', () => {
  it('stores the name without the greeting, capitalized', async () => {
    const c = converse(example('contact-request'));
    const email = await c.send({ text: "hi, I'm jane doe" });
    expect(email.answers.name).toMatchObject({ value: 'Jane Doe', raw: "hi, I'm jane doe" });
    c.stop();
  });

  it('asks again, saying what to write, when the answer is more than a name', async () => {
    const c = converse(example('contact-request'));
    const again = await c.send({ text: 'hi, I need help' });
    expect(again.answers.name).toBeUndefined();
    expect(again.message).toBe('Please write just your name, for example Jane Doe.\n\nWhat is your name?');
    expect((await c.send({ text: 'hello, my name is Jane and I have a question about my order' })).message).toMatch(/^That is longer than a name\./);
    c.stop();
  });

  it('takes a phone number given at the email question as the phone answer, as its prompt says', async () => {
    const c = converse(example('contact-request'));
    await c.send({ text: 'Jane Doe' });
    const review = await c.send({ text: '(555) 010-2233' });
    expect(review.completion.reason).toBe('awaiting_user_confirmation');
    expect(Object.fromEntries(Object.entries(review.answers).map(([k, a]) => [k, a.value]))).toEqual({ name: 'Jane Doe', phone: '+15550102233' });
    expect((await c.send({ button: 'confirm' })).message).toBe('Thanks, Jane Doe: your contact request is in, and we will be in touch soon.');
  });

  it('refuses a phone number too short for its country, saying what is expected', async () => {
    const c = converse(example('contact-request'));
    await c.send({ text: 'Jane Doe' });
    const refused = await c.send({ text: '555-0102' });
    expect(refused.answers.phone).toBeUndefined();
    expect(refused.message).toMatch(
      /^That number has 7 digits, but a US phone number has 10 with the area code, such as \(555\) 010-2233\. For a number outside the US, start with \+ and the country code\.\n\n/,
    );
    // At the phone question too; a number with its country code is checked against that country.
    await c.send({ button: 'skip' });
    expect((await c.send({ text: '555 0102' })).message).toMatch(/^That number has 7 digits, but a US phone number has 10/);
    const review = await c.send({ text: '+44 20 7946 0958' });
    expect(review.answers.phone!.value).toBe('+442079460958');
  });
});
