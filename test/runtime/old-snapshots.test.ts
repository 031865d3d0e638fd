import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseFlowText } from '../../src/flow/index.js';
import { restoreConversation, startConversation } from '../../src/index.js';

const flow = parseFlowText(readFileSync(new URL('../../machines/flows/patient-intake.json', import.meta.url), 'utf8'));

describe('snapshots saved before the context had its v1 fields', () => {
  it('restore with the missing fields at their initial values and continue', async () => {
    const first = startConversation(flow);
    await first.send({ button: 'Yes' });
    const saved = JSON.parse(JSON.stringify(first.persist()));
    // What an earlier gateflow stored: the context without invalid, attempts, host, path, actionError, correction, noted.
    for (const field of ['invalid', 'attempts', 'host', 'path', 'actionError', 'correction', 'noted']) delete saved.snapshot.context[field];
    expect(Object.keys(saved.snapshot.context).sort()).toEqual(['answers', 'notice', 'pendingText', 'previousAnswers', 'stoppedBy']);

    const again = restoreConversation(flow, saved);
    const reply = await again.send({ text: 'no, always covered' });
    expect(reply.state).toEqual({ '3_visit_type': 'asking' });
    expect(reply.answers['2_insurance_history']).toMatchObject({ value: 'No' });
    const context = (again.persist().snapshot as unknown as { context: Record<string, unknown> }).context;
    expect(context).toMatchObject({ invalid: null, attempts: {}, host: {}, path: null, actionError: null, correction: null });
  });
});
