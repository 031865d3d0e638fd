/**
 * The document agent's machine (seed 002, machines/document-agent.ts) against
 * the seed's flow: its states, the named actor each I/O state invokes, the
 * default actors refusing, the module importing only types from src/, and
 * the drawing (src/viz, as `gateflow viz` draws flows) showing the seed's
 * steps in order: load the context → decide → clarify | confirm | search |
 * create | edit | converse → format → store the reply → publish the event.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor, type AnyActorLogic } from 'xstate';
import {
  documentAgentMachine,
  type CreateInput,
  type CreateOutcome,
  type DecideInput,
  type DecideOutput,
  type DocumentAgentContext,
  type LoadContextInput,
  type LoadedContext,
} from '../../machines/document-agent.js';
import { decisionOf } from '../../src/document-agent/schemas.js';
import { drawMachine, machineDrawing, type MachineDrawing } from '../../src/viz/index.js';

const MACHINES = fileURLToPath(new URL('../../machines/', import.meta.url));

/** The seed's step 3c, one state each: what a decision leads to. */
const ACTIONS = ['clarify', 'confirm', 'search', 'create', 'edit', 'converse'] as const;
/** The seed's steps as states, in the order of its "Visual Flow Diagram" (2c/3a, 3b, 3c, 4, 5, 6). */
const SEED_STEPS = ['load_context', 'decide', ...ACTIONS, 'format', 'store_reply', 'publish'] as const;

/** Each state that does I/O, and the named actor it invokes. */
const INVOKES: Record<string, string> = {
  load_context: 'loadContext',
  decide: 'decide',
  search: 'searchWeb',
  create: 'createDocument',
  edit: 'editDocument',
  converse: 'converse',
};

const key = (id: string) => id.split('.').at(-1)!;

/** The drawing's edges between state keys (targetless transitions left out). */
function edgesOf(drawing: MachineDrawing): { from: string; to: string; event: string; guard: string | null }[] {
  return drawing.transitions.filter((t) => t.target !== null).map((t) => ({ from: key(t.source), to: key(t.target!), event: t.event, guard: t.guard }));
}

/** Where one message ends: at rest, waiting for the person's next message or answer. */
const AT_REST = new Set(['idle', 'awaiting_confirmation', 'awaiting_choice']);

/**
 * Whether one message (from `from` until the machine is at rest again) can
 * reach `to` in the drawing without passing through `without`.
 */
function reachable(drawing: MachineDrawing, from: string, to: string, without?: string): boolean {
  const next = new Map<string, string[]>();
  for (const e of edgesOf(drawing)) next.set(e.from, [...(next.get(e.from) ?? []), e.to]);
  const seen = new Set([from]);
  const queue = [from];
  while (queue.length > 0) {
    const at = queue.shift()!;
    if (at === to) return true;
    if (at !== from && AT_REST.has(at)) continue;
    for (const n of next.get(at) ?? []) if (n !== without && !seen.has(n)) (seen.add(n), queue.push(n));
  }
  return false;
}

/** Every `import … from '…'` of a module, with whether it imports types only (as test/machines/dependencies.test.ts reads them). */
function importsOf(text: string): { from: string; typeOnly: boolean }[] {
  return [...text.matchAll(/^import\s+(type\s+)?[\s\S]*?\bfrom\s+'([^']+)';/gm)].map((m) => ({ from: m[2]!, typeOnly: Boolean(m[1]) }));
}

describe('the document agent’s machine against the seed’s flow', () => {
  const drawing = machineDrawing(documentAgentMachine);
  const states = drawing.states.slice(1);

  it('has a state for every step of the seed, and the waiting, routing and failing states beside them', () => {
    expect(drawing.id).toBe('documentAgent');
    expect(states.map((s) => s.key).sort()).toEqual(
      [...SEED_STEPS, 'idle', 'act', 'failed', 'awaiting_confirmation', 'awaiting_choice'].sort(),
    );
    expect(drawing.states[0]!.initial).toBe('idle');
    // Flat: every state is a direct child of the machine, and none is final (a chat goes on).
    expect(states.every((s) => s.parent === 'documentAgent' && s.type === 'atomic')).toBe(true);
  });

  it('invokes a named actor in every state that does I/O, and in no other state', () => {
    const invoked = Object.fromEntries(states.filter((s) => s.invoke.length > 0).map((s) => [s.key, s.invoke.map((i) => i.src)]));
    expect(invoked).toEqual(Object.fromEntries(Object.entries(INVOKES).map(([state, src]) => [state, [src]])));
    // The I/O states are the ones the runtime waits for (busy); the rest are at rest or transient.
    for (const s of states) expect(s.tags.includes('busy'), s.key).toBe(s.key in INVOKES);
  });

  it('waits for the person only in the two waiting states, each with its gate (Proceed/Cancel, the duplicate name’s two choices)', () => {
    const context = (pending: DocumentAgentContext['pending']) => ({ pending, reply: 'Should I proceed?', answerWithin: 'PT1H' }) as DocumentAgentContext;
    const inputsOf = (state: string, c: DocumentAgentContext) =>
      (documentAgentMachine.states[state]!.meta as { inputs: (c: DocumentAgentContext) => { name: string; options: { value: string }[]; passOtherText?: boolean }[] }).inputs(c);
    const waiting = states.filter((s) => s.meta && 'inputs' in s.meta).map((s) => s.key);
    expect(waiting).toEqual(['awaiting_confirmation', 'awaiting_choice']);
    const confirm = inputsOf('awaiting_confirmation', context({ kind: 'confirm', decision: decisionOf({ pending_confirmation: true }), edit: null }));
    expect(confirm.map((i) => [i.name, i.options.map((o) => o.value), i.passOtherText])).toEqual([['confirmation', ['proceed', 'cancel'], true]]);
    const choice = inputsOf(
      'awaiting_choice',
      context({ kind: 'duplicate', decision: decisionOf({ should_create: true }), existing: { id: 1, name: 'Recipes' }, proposedName: 'Recipes 2', content: '', standingInstruction: '' }),
    );
    expect(choice.map((i) => [i.name, i.options.map((o) => o.value), i.passOtherText])).toEqual([['duplicate_choice', ['add_to_existing', 'create_new'], true]]);
  });

  it('refuses by default: each named actor fails until the host provides it', async () => {
    const actors = documentAgentMachine.implementations.actors as Record<string, AnyActorLogic>;
    expect(Object.keys(actors).sort()).toEqual(Object.values(INVOKES).sort());
    for (const name of Object.values(INVOKES)) {
      const actor = createActor(actors[name]!, { input: {} });
      const failed = new Promise<unknown>((resolve) => actor.subscribe({ error: resolve }));
      actor.start();
      expect(String(await failed)).toContain(`the document agent's ${name} actor was not provided: use documentAgentHost()`);
    }
  });

  it('says so, and writes nothing, when a message reaches an actor nobody provided', async () => {
    const actor = createActor(documentAgentMachine, { input: { projectId: 1, sessionId: 's1' } }).start();
    actor.send({ type: 'user.text', text: 'Add my favorite recipes' });
    const snapshot = await waitFor(actor, (s) => s.matches('idle') && s.context.messageNo === 1);
    actor.stop();
    expect(snapshot.context.outcome).toMatchObject({ kind: 'failed', stage: 'load' });
    expect(snapshot.context.reply).toMatch(/^I couldn't do that: the document agent's loadContext actor was not provided: use documentAgentHost\(\)\. Nothing was changed/);
    expect(snapshot.context.outbox).toMatchObject({ user: null, assistant: null, write: null, event: { success: false } });
  });

  it('runs the seed’s example ("Add my favorite recipes" in an empty project) on provided actors', async () => {
    const decision = decisionOf({
      should_create: true,
      document_name: 'Recipes',
      intent_statement: "I'll create a new document called 'Recipes'",
      content_summary: 'Created a Recipes document with sections for breakfast, lunch, dinner...',
    });
    const machine = documentAgentMachine.provide({
      actors: {
        loadContext: fromPromise<LoadedContext, LoadContextInput>(async () => ({
          chatId: 1,
          project: { id: 1, name: 'My Project', description: null },
          documents: [],
          history: [],
          focusDocumentId: null,
        })),
        decide: fromPromise<DecideOutput, DecideInput>(async () => ({ decision, edit: null, modelCalls: 1 })),
        createDocument: fromPromise<CreateOutcome, CreateInput>(async () => ({ ok: true, name: 'Recipes', content: '## Breakfast\n', standingInstruction: '' })),
      },
    });
    const actor = createActor(machine, { input: { projectId: 1, sessionId: 's1' } }).start();
    actor.send({ type: 'user.text', text: 'Add my favorite recipes' });
    const snapshot = await waitFor(actor, (s) => s.matches('idle') && s.context.messageNo === 1);
    actor.stop();
    expect(snapshot.context.reply).toBe(
      "I've created the document 'Recipes' in this project.\n\n**Document Content Summary:**\nCreated a Recipes document with sections for breakfast, lunch, dinner...",
    );
    expect(snapshot.context.outbox).toMatchObject({
      user: { content: 'Add my favorite recipes' },
      write: { kind: 'create', projectId: 1, name: 'Recipes', content: '## Breakfast\n' },
      event: { success: true },
    });
  });

  it('imports nothing from src/ but types (the machine and the sibling modules it imports)', () => {
    const visited = new Set<string>();
    const visit = (file: string) => {
      if (visited.has(file)) return;
      visited.add(file);
      const imports = importsOf(readFileSync(`${MACHINES}${file}`, 'utf8'));
      const values = imports.filter((i) => !i.typeOnly);
      expect(values.filter((i) => i.from.includes('src/')).map((i) => i.from), file).toEqual([]);
      for (const i of values) expect(i.from, file).toMatch(/^(xstate|zod)$|^\.\/[\w-]+\.js$/);
      for (const i of values) if (i.from.startsWith('./')) visit(i.from.slice(2).replace(/\.js$/, '.ts'));
    };
    visit('document-agent.ts');
    expect([...visited].sort()).toEqual(['cancel-words.ts', 'document-agent-replies.ts', 'document-agent.ts', 'tags.ts']);
    // …and it does use src/'s types (so the check above is looking at real imports).
    expect(importsOf(readFileSync(`${MACHINES}document-agent.ts`, 'utf8')).filter((i) => i.typeOnly && i.from.startsWith('../src/')).length).toBeGreaterThan(0);
    expect(importsOf("import { x } from '../src/a.js';\nimport type { Y } from '../src/y.js';")).toEqual([
      { from: '../src/a.js', typeOnly: false },
      { from: '../src/y.js', typeOnly: true },
    ]);
  });
});

describe('the drawing shows the seed’s flow diagram', () => {
  const drawing = machineDrawing(documentAgentMachine);
  const edges = edgesOf(drawing);
  const has = (from: string, to: string) => edges.some((e) => e.from === from && e.to === to);

  it('draws the seed’s steps as one line: a message → load_context → decide → act → each action → format → store_reply → publish → the next message', () => {
    expect(edges.filter((e) => e.from === 'idle').map((e) => [e.to, e.event])).toEqual([
      ['load_context', 'user.text'],
      ['load_context', 'user.button'],
    ]);
    expect(has('load_context', 'decide')).toBe(true);
    expect(has('decide', 'act')).toBe(true);
    // 3c: the decision's routes, in the order they are tried; the last is the conversation.
    expect(edges.filter((e) => e.from === 'act').map((e) => [e.to, e.guard])).toEqual([
      ['clarify', 'needsClarification'],
      ['confirm', 'needsConfirmation'],
      ['search', 'needsSearch'],
      ['edit', 'shouldEdit'],
      ['create', 'shouldCreate'],
      ['converse', null],
    ]);
    // A search comes before the content it feeds: back to the decision's routes (unless the message's time ran out during it).
    expect(edges.filter((e) => e.from === 'search').map((e) => [e.to, e.guard])).toEqual([
      ['act', null],
      ['format', 'timeUp'],
      ['act', null],
    ]);
    for (const action of ACTIONS.filter((a) => a !== 'search')) expect(has(action, 'format'), `${action} → format`).toBe(true);
    // 4 → 5 → 6, each the only way on.
    expect(edges.filter((e) => e.from === 'format').map((e) => e.to)).toEqual(['store_reply']);
    expect(edges.filter((e) => e.from === 'store_reply').map((e) => e.to)).toEqual(['publish']);
    expect(edges.filter((e) => e.from === 'publish').map((e) => e.to)).toEqual(['awaiting_confirmation', 'awaiting_choice', 'idle']);
  });

  it('puts each step before the next: no message reaches a later step without passing the earlier ones', () => {
    // A message from idle: load_context before everything; decide before every action; format, store_reply,
    // publish in that order; the waiting comes after the reply that asks is stored and published.
    for (const later of ['decide', 'act', ...ACTIONS, 'format', 'store_reply', 'publish', 'awaiting_confirmation', 'awaiting_choice'])
      expect(reachable(drawing, 'idle', later, 'load_context'), `${later} without load_context`).toBe(false);
    for (const later of ['act', ...ACTIONS]) expect(reachable(drawing, 'idle', later, 'decide'), `${later} without decide`).toBe(false);
    for (const later of ['store_reply', 'publish', 'awaiting_confirmation', 'awaiting_choice'])
      expect(reachable(drawing, 'idle', later, 'format'), `${later} without format`).toBe(false);
    for (const later of ['publish', 'awaiting_confirmation', 'awaiting_choice']) expect(reachable(drawing, 'idle', later, 'store_reply'), `${later} without store_reply`).toBe(false);
    for (const later of ['awaiting_confirmation', 'awaiting_choice']) expect(reachable(drawing, 'idle', later, 'publish'), `${later} without publish`).toBe(false);
    // An answer continues the message it waited for: Proceed runs the announced action without a new decision.
    expect(reachable(drawing, 'awaiting_confirmation', 'edit', 'decide')).toBe(true);
    expect(reachable(drawing, 'awaiting_confirmation', 'publish', 'format')).toBe(false);
    // …and the check can fail: a failed load is said without a decision.
    expect(reachable(drawing, 'idle', 'format', 'decide')).toBe(true);
  });

  it('sends every failure to format (said, never silent), and the waiting states back into the line', () => {
    // The message's time running out (issue 27) is said at once; any other failure goes through `failed`.
    for (const state of ['load_context', 'decide', 'create', 'edit', 'converse'])
      expect(edges.filter((e) => e.from === state && e.event.startsWith('xstate.error.actor.')).map((e) => [e.to, e.guard]), state).toEqual([
        ['format', 'timeUp'],
        ['failed', null],
      ]);
    expect(edges.filter((e) => e.from === 'failed').map((e) => e.to)).toEqual(['format']);
    // Proceed runs the announced action (the routes again, no new decision); a choice goes to edit or create.
    expect(edges.filter((e) => e.from === 'awaiting_confirmation').map((e) => [e.to, e.event])).toEqual([
      ['act', 'input.answered'],
      ['format', 'input.answered'],
      // A cancel word typed cancels; other words are a new request.
      ['format', 'user.text'],
      ['load_context', 'user.text'],
      ['load_context', 'user.button'],
      ['format', 'input.timedOut'],
    ]);
    expect(edges.filter((e) => e.from === 'awaiting_choice').map((e) => [e.to, e.event])).toEqual([
      ['format', 'input.answered'],
      ['edit', 'input.answered'],
      ['create', 'input.answered'],
      ['format', 'user.text'],
      ['load_context', 'user.text'],
      ['load_context', 'user.button'],
      ['format', 'input.timedOut'],
    ]);
  });

  it('renders the line in Mermaid, with the actor each step invokes', () => {
    const mermaid = drawMachine(documentAgentMachine, 'mermaid');
    const line = (from: string, to: string) => new RegExp(`^documentAgent_${from} --> documentAgent_${to} : `, 'm');
    for (const [from, to] of [
      ['idle', 'load_context'],
      ['load_context', 'decide'],
      ['decide', 'act'],
      ...ACTIONS.map((a) => ['act', a]),
      ['converse', 'format'],
      ['format', 'store_reply'],
      ['store_reply', 'publish'],
      ['publish', 'idle'],
    ] as const)
      expect(mermaid, `${from} --> ${to}`).toMatch(line(from, to));
    for (const [state, src] of Object.entries(INVOKES)) expect(mermaid).toContain(`documentAgent_${state} : invoke ${src}`);
    // The steps are declared in the seed's order.
    const order = SEED_STEPS.map((s) => mermaid.indexOf(`state "${s}" as documentAgent_${s}`));
    expect(order.every((at) => at >= 0)).toBe(true);
    expect(order.slice(0, 2)).toEqual([...order.slice(0, 2)].sort((a, b) => a - b));
    expect(order.slice(-3)).toEqual([...order.slice(-3)].sort((a, b) => a - b));
    expect(order[1]!).toBeLessThan(Math.min(...order.slice(2, -3)));
    expect(Math.max(...order.slice(2, -3))).toBeLessThan(order.at(-3)!);
  });
});
