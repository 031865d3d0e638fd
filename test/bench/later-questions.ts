/**
 * `npm run bench` (issue 26): the cost of one text turn must not grow with
 * the number of questions after it. A flow whose second question is followed
 * by 5, then 100, later category questions; a text turn at the second
 * question, one the reader answers and one it cannot read (which reads every
 * later question too), timed over many sessions in the same run. The figure
 * is the ratio of the two: 1.0 is flat.
 */
import { startConversation } from '../../src/flow/conversation.js';
import { parseFlowValue } from '../../src/flow/parse.js';
import type { FlowDocument } from '../../src/flow/schema.js';

/** A made-up word of its own for each question and slot, so that questions share no words (as in a real flow). */
function word(i: number, slot: number): string {
  let x = (i + 1) * 7919 + slot * 104729;
  let w = '';
  for (let k = 0; k < 7; k++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    w += String.fromCharCode(97 + (x % 26));
  }
  return w;
}

function flowWith(later: number): FlowDocument {
  const ids = ['q0', 'q1', ...Array.from({ length: later }, (_, i) => `later${i}`)];
  const nodes = ids.map((id, i) => ({
    kind: 'question' as const,
    id,
    prompt: `Question ${i}: how about topic ${i}?`,
    answer: {
      type: 'category' as const,
      categories: [word(i, 0), word(i, 1), word(i, 2)],
      synonyms: { [word(i, 0)]: [`${word(i, 3)} shade`, word(i, 4)], [word(i, 1)]: [`${word(i, 5)} tone`] },
    },
  }));
  const edges = ids.slice(1).map((id, i) => ({ from: ids[i]!, to: id }));
  return parseFlowValue(
    { id: `later-${later}`, version: 1, start: 'q0', nodes: [...nodes, { kind: 'terminal', id: 'end', outcome: 'completed' }], edges: [...edges, { from: ids.at(-1)!, to: 'end' }] },
    `later-${later}`,
  );
}

const TEXTS = [`I would say ${word(1, 1)} please`, 'honestly no idea what to pick here, sorry about that'];

async function timeTurns(doc: FlowDocument, sessions: number): Promise<number> {
  let total = 0;
  for (let s = 0; s < sessions; s++) {
    const c = startConversation(doc);
    await c.send({ button: word(0, 0) });
    const text = TEXTS[s % TEXTS.length]!;
    const started = performance.now();
    await c.send({ text });
    total += performance.now() - started;
    c.stop();
  }
  return total / sessions;
}

const SESSIONS = Number(process.env.BENCH_SESSIONS ?? 200);
const few = flowWith(5);
const many = flowWith(100);
// Warm up both (JIT, the flows' compiled machines and phrase indexes).
await timeTurns(few, 20);
await timeTurns(many, 20);
const a = await timeTurns(few, SESSIONS);
const b = await timeTurns(many, SESSIONS);
const c = await timeTurns(few, SESSIONS);
const fewMs = (a + c) / 2;
console.log(`text turn with 5 later questions: ${fewMs.toFixed(3)} ms; with 100: ${b.toFixed(3)} ms; ratio ${(b / fewMs).toFixed(2)}x (1.0 is flat)`);
