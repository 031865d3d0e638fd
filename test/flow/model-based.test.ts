import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createActor, fromPromise } from 'xstate';
import { describe, expect, it } from 'vitest';
import { compileFlow, parseFlowText, type FlowDocumentInput } from '../../src/flow/index.js';
import {
  generateFlowPaths,
  newStepsFirst,
  pathsToReplay,
  replayFlowPaths,
  type FlowCoverage,
  type FlowTestPath,
} from '../../src/testing/model-based.js';

const flowsDir = fileURLToPath(new URL('../../machines/flows/', import.meta.url));
const flowFiles = readdirSync(flowsDir).filter((f) => f.endsWith('.json')).sort();
const load = (file: string) => parseFlowText(readFileSync(flowsDir + file, 'utf8'), file);

function report(coverage: FlowCoverage): string {
  const { states, transitions } = coverage;
  return (
    `${coverage.flowId}: ${coverage.paths} paths, ${coverage.steps} steps, ` +
    `states ${states.covered}/${states.total} (${states.percent}%), ` +
    `transitions ${transitions.covered}/${transitions.total} (${transitions.percent}%)`
  );
}

/**
 * `npm test` replays each flow's paths until every state and transition is
 * reached (the same coverage verdict); `npm run test:paths` (in .ci/run)
 * replays and checks every path.
 */
const EVERY_PATH = process.env.GATEFLOW_EVERY_PATH === '1';

const coverages = new Map<string, Promise<FlowCoverage>>();
/** Each flow's paths replayed once; its line printed then. */
const coverageOf = (file: string) => {
  let c = coverages.get(file);
  if (!c) {
    const flow = load(file);
    c = replayFlowPaths(flow, generateFlowPaths(flow), { untilCovered: !EVERY_PATH }).then((coverage) => {
      console.log(report(coverage));
      return coverage;
    });
    coverages.set(file, c);
  }
  return c;
};

describe('model-based paths (xstate/graph) over every flow in machines/flows', () => {
  it('finds the example flows', () => {
    expect(flowFiles).toEqual(expect.arrayContaining(['patient-intake.json', 'led-sales.json', 'lighting-consult.json', 'event-booking.json', 'refund-approval.json']));
  });

  for (const file of flowFiles) {
    it(`${file}: paths reach every state and every transition`, async () => {
      const coverage = await coverageOf(file);
      expect(coverage.states.missing).toEqual([]);
      expect(coverage.transitions.missing).toEqual([]);
      expect(coverage.states.percent).toBe(100);
      expect(coverage.transitions.percent).toBe(100);
    });
  }
});

describe('the coverage measure can fail', () => {
  const flow = load('patient-intake.json');
  const paths = generateFlowPaths(flow);

  it('reports what paths without any limiting value miss', async () => {
    const calm = paths.filter(
      (p) =>
        !p.events.some(
          (e) =>
            (e.type === 'user.button' && (e.value === 'No' || e.value === 'Emergency')) ||
            // A correction at the summary may say it too ("patient info availability No").
            (e.type === 'user.text' && /(^|\s)(No|Emergency)$/.test(e.text)) ||
            (e.type === 'xstate.done.actor.extract' && Object.values(e.output.values).some((v) => v.value === 'Emergency' || v.value === 'No')),
        ),
    );
    const coverage = await replayFlowPaths(flow, calm);
    expect(coverage.states.missing).toContain('patient-intake.stopped');
    expect(coverage.transitions.percent).toBeLessThan(100);
    // #1 is "Keep" (asked again in a correction); #2 the limiting button.
    expect(coverage.transitions.missing).toContain('patient-intake.1_patient_info_availability.asking on user.button #2');
  });

  it('stopping once all is reached gives the figures of a full replay, and a short coverage stays short', async () => {
    const contact = load('contact-request.json');
    const all = generateFlowPaths(contact);
    expect(await replayFlowPaths(contact, all, { untilCovered: true })).toEqual(await replayFlowPaths(contact, all));
    const half = all.slice(0, Math.floor(all.length / 2));
    const short = await replayFlowPaths(contact, half, { untilCovered: true });
    expect(short.transitions.percent).toBeLessThan(100);
    expect(short).toEqual(await replayFlowPaths(contact, half));
  });

  it('a quick replay takes the paths with new steps first, and leaves none out', () => {
    const replayed = pathsToReplay(paths);
    const ordered = newStepsFirst(replayed);
    expect(ordered).toHaveLength(replayed.length);
    expect(new Set(ordered)).toEqual(new Set(replayed));
    // A path that only repeats steps taken before it waits until after one that takes a new step.
    const repeat = replayed[0]!;
    const again = { ...repeat, description: 'the same steps again' };
    const fresh = replayed.find((p) => JSON.stringify(p.events[0]) !== JSON.stringify(repeat.events[0]))!;
    expect(newStepsFirst([repeat, again, fresh])).toEqual([repeat, fresh, again]);
  });

  it('refuses a path whose expected state the live actor does not reach', async () => {
    const [first] = paths;
    const wrong = { ...first!, expected: first!.expected.map(() => 'confirmation') };
    await expect(replayFlowPaths(flow, [wrong])).rejects.toThrow(/the graph said "confirmation"/);
  });

  it('refuses a path whose answers differ from what the live actor stored', async () => {
    const path = paths.find((p) => p.events.length === 1 && p.events[0]!.type === 'user.button' && p.events[0]!.value === 'Yes')!;
    const wrong: FlowTestPath = { ...path, keys: path.keys!.map((k) => k.replace('1_patient_info_availability', 'something_else')) };
    await expect(replayFlowPaths(flow, [wrong])).rejects.toThrow(/the actor's state is .* the graph said/);
  });

  it('refuses a path that settles an actor that is not running', async () => {
    const led = load('led-sales.json');
    const early: FlowTestPath = {
      description: 'the price lookup answers before it is called',
      events: [{ type: 'xstate.done.actor.action.quote', output: { total: 1, fixtures: 1 } }],
      expected: [{ intent: 'asking' }],
    };
    await expect(replayFlowPaths(led, [early])).rejects.toThrow(/settles "action.quote", but no actor is running/);
  });
});

/**
 * Regression (found by the model-based search): from `extracting`, a later
 * question's limiting value used to jump to the target of that question's
 * first `limiting` edge, skipping the guards of its limiting edges and the
 * enforced constraints. It now leaves through that question's edge group, as
 * answering the questions one by one does.
 */
describe('a later limiting value read by extraction', () => {
  const base = (extra: Partial<FlowDocumentInput>): FlowDocumentInput => ({
    id: 'later-limiting',
    version: 1,
    start: 'name',
    nodes: [
      { kind: 'question', id: 'name', prompt: 'Your name?', required: false, answer: { type: 'string' } },
      { kind: 'question', id: 'topic', prompt: 'Topic?', answer: { type: 'category', categories: ['Sales', 'Urgent'] } },
      { kind: 'question', id: 'severity', prompt: 'Severity?', answer: { type: 'category', categories: ['Low', 'High'] }, limitingValues: ['High'] },
      { kind: 'terminal', id: 'done', outcome: 'completed' },
      { kind: 'terminal', id: 'escalate', outcome: 'handoff' },
      { kind: 'terminal', id: 'stopped', outcome: 'stopped' },
    ],
    edges: [
      { from: 'name', to: 'topic' },
      { from: 'topic', to: 'severity' },
      { from: 'severity', to: 'done' },
      { from: 'severity', to: 'escalate', on: 'limiting', guard: "answers.topic == 'Urgent'" },
      { from: 'severity', to: 'stopped', on: 'limiting', guard: 'else' },
    ],
    ...extra,
  });
  /** "Sales" then "High" answered at topic: by buttons, or by one message the extractor reads. */
  const finish = async (doc: FlowDocumentInput, name: string, how: 'buttons' | 'extraction') => {
    let settle: ((output: unknown) => void) | undefined;
    const extract = fromPromise(() => new Promise((resolve) => (settle = resolve)));
    const actor = createActor(compileFlow(doc).provide({ actors: { extract } } as never));
    actor.start();
    actor.send({ type: 'user.text', text: name });
    if (how === 'buttons') {
      actor.send({ type: 'user.button', value: 'Sales' });
      actor.send({ type: 'user.button', value: 'High' });
    } else {
      actor.send({ type: 'user.text', text: 'it is about buying, and it is bad' });
      const llm = (value: string) => ({ value, confidence: 0.9, source: 'llm' });
      settle!({ values: { topic: llm('Sales'), severity: llm('High') } });
      await new Promise((r) => setTimeout(r, 0));
      // A limiting value read out of free text is checked before it stops the flow (issue 26 §2): confirmed.
      expect(actor.getSnapshot().hasTag('confirming-stop')).toBe(true);
      actor.send({ type: 'user.button', value: 'confirm' });
    }
    return actor.getSnapshot().value;
  };
  const guarded = base({});
  // Limiting goes to a handoff, unguarded; the constraint wants a name, and the name was skipped.
  const enforced = base({
    nodes: base({}).nodes.filter((n) => n.id !== 'stopped'),
    edges: [
      { from: 'name', to: 'topic' },
      { from: 'topic', to: 'severity' },
      { from: 'severity', to: 'done' },
      { from: 'severity', to: 'escalate', on: 'limiting' },
    ],
    constraints: [{ name: 'named', check: 'has(answers.name)', message: 'We need your name.', fallback: 'name' }],
  });

  it('the flows compile, and extraction reads both answers (so the tests below are about where they lead)', async () => {
    for (const doc of [guarded, enforced]) {
      const value = await finish(doc, 'skip', 'extraction');
      expect(value).not.toEqual({ topic: 'asking' });
      expect(value).not.toEqual({ topic: 'extracting' });
    }
  });

  it('answered one by one, the limiting edge whose guard holds is taken', async () => {
    expect(await finish(guarded, 'Sam', 'buttons')).toBe('stopped');
  });

  it('read by extraction, the limiting edge whose guard holds is taken (not the first)', async () => {
    expect(await finish(guarded, 'Sam', 'extraction')).toBe('stopped');
  });

  it('answered one by one, a handoff is not entered while an enforced constraint fails', async () => {
    expect(await finish(enforced, 'skip', 'buttons')).toEqual({ name: 'asking' });
  });

  it('read by extraction, a handoff is not entered while an enforced constraint fails', async () => {
    expect(await finish(enforced, 'skip', 'extraction')).toEqual({ name: 'asking' });
  });
});
