/**
 * Paths that can be replayed through the runtime or HTTP (issue 28 §2):
 * with `offeredButtonsOnly`, a generated path presses only buttons its reply
 * offers (the runtime refuses any other); by default the search also presses
 * buttons no reply offers, to reach the machine's guards against them.
 */
import { describe, expect, it } from 'vitest';
import { createActor, waitFor } from 'xstate';
import { buildReply } from '../../src/flow/build-reply.js';
import { compileFlow } from '../../src/flow/compile.js';
import { flowGraph } from '../../src/flow/graph.js';
import { flowTestEvents, generateFlowPaths } from '../../src/testing/index.js';
import { exampleFlows } from '../helpers/http.js';

const flows = exampleFlows();

describe('offeredButtonsOnly', () => {
  it.each(['contact-request', 'patient-intake'])('%s: every button a path presses is one its reply offers', async (id) => {
    const doc = flows.find((f) => f.id === id)!;
    const graph = flowGraph(doc);
    const actor = createActor(compileFlow(doc)).start();
    const snapshot = await waitFor(actor, (s) => !s.hasTag('busy'));
    const offered = (buildReply(graph, snapshot, 's').buttons ?? []).map((b) => b.value);
    const pressed = (options: { offeredButtonsOnly?: boolean }) =>
      flowTestEvents(graph, snapshot, options).flatMap((e) => (e.type === 'user.button' ? [e.value] : []));
    // By default the first question is also pressed with a button it does not offer.
    expect(pressed({}).some((v) => !offered.includes(v))).toBe(true);
    expect(pressed({ offeredButtonsOnly: true }).every((v) => offered.includes(v))).toBe(true);
    actor.stop();
    // And the search still finds its way to the end with offered buttons alone.
    const paths = generateFlowPaths(doc, { offeredButtonsOnly: true });
    expect(paths.some((p) => JSON.stringify(p.expected.at(-1)).includes(doc.nodes.find((n) => n.kind === 'terminal')!.id))).toBe(true);
  });
});
