import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseFlowText } from '../../src/flow/index.js';
import {
  ConversationFinishedError,
  InvalidTurnError,
  MAX_TURN_TEXT_LENGTH,
  startConversation,
  type Turn,
} from '../../src/index.js';

const flow = parseFlowText(
  readFileSync(new URL('../../machines/flows/patient-intake.json', import.meta.url), 'utf8'),
  'patient-intake.json',
);

describe('a conversation', () => {
  it('returns the stored reply for a replayed turnId and changes nothing', async () => {
    const c = startConversation(flow);
    const first = await c.send({ button: 'Yes', turnId: 't1' });
    const replay = await c.send({ button: 'Yes', turnId: 't1' });
    expect(replay).toEqual(first);
    expect(c.reply().state).toEqual({ '2_insurance_history': 'asking' });
    const second = await c.send({ button: 'No', turnId: 't2' });
    expect(second.state).toEqual({ '3_visit_type': 'asking' });
  });

  it('applies turns sent at once one after another, in order', async () => {
    const c = startConversation(flow);
    const replies = await Promise.all([
      c.send({ button: 'Yes' }),
      c.send({ text: 'no, always covered' }),
      c.send({ text: 'follow up' }),
    ]);
    expect(replies.map((r) => r.state)).toEqual([
      { '2_insurance_history': 'asking' },
      { '3_visit_type': 'asking' },
      { '4_patient_age_group': 'asking' },
    ]);
  });

  it('refuses malformed turns with what is wrong, and keeps working', async () => {
    const c = startConversation(flow);
    await expect(c.send({ txt: 'yes' } as unknown as Turn)).rejects.toThrow(InvalidTurnError);
    await expect(c.send({ text: 'x'.repeat(MAX_TURN_TEXT_LENGTH + 1) })).rejects.toThrow(
      `text must be at most ${MAX_TURN_TEXT_LENGTH} characters`,
    );
    await expect(c.send({ button: '' })).rejects.toThrow(/button must not be empty/);
    expect((await c.send({ button: 'Yes' })).state).toEqual({ '2_insurance_history': 'asking' });
  });

  it('refuses turns once finished, and its output is the outcome', async () => {
    const c = startConversation(flow);
    const stopped = await c.send({ button: 'No' });
    expect(stopped.completion).toEqual({ isComplete: true, reason: 'stopped_limiting_value', readyForHandoff: false });
    expect(c.done).toBe(true);
    await expect(c.send({ button: 'Yes' })).rejects.toThrow(ConversationFinishedError);
    expect(c.persist().snapshot).toMatchObject({
      status: 'done',
      output: { outcome: 'stopped', terminal: 'stopped', stoppedBy: '1_patient_info_availability' },
    });
  });
});
