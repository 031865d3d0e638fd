/**
 * A correction at the summary reads the message once: its words are taken
 * once, and it is read once against each question's words, though the
 * correction reading tries every answer, several guards ask, and the question
 * it corrects then reads the same message as its answer. (Each reading used
 * to start from the text again: a correction cost several gate turns.)
 */
import { describe, expect, it, vi } from 'vitest';
import { startConversation } from '../../src/flow/conversation.js';
import { example } from './helpers.js';

// Count what normalize.ts is asked, as the matcher and the correction call it.
const calls = vi.hoisted(() => ({ tokenize: [] as string[] }));
vi.mock('../../src/extract/normalize.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/extract/normalize.js')>();
  return {
    ...real,
    tokenize: (text: string) => {
      calls.tokenize.push(text);
      return real.tokenize(text);
    },
  };
});

describe('a correction at the summary', () => {
  it('takes the message\'s words at most four times (the matcher, the correction, the confirmation\'s two checks), not once per reading (15), and still corrects', async () => {
    const c = startConversation(example('patient-intake'));
    for (const button of ['Yes', 'No', 'Follow-up', 'Adult', 'Email']) await c.send({ button });
    const text = 'change the preferred contact to phone';
    calls.tokenize.length = 0;
    const reply = await c.send({ text });
    expect(reply.answers['5_preferred_contact']?.value).toBe('Phone');
    expect(reply.buttonContext).toBe('gate_confirmation');
    // Once for the matcher's readings, once for the names the correction looks for, the confirmation's
    // "is this a yes?" and "edit" checks, and the grounded reader's look at what the message asserts (two);
    // before, every reading of every question started again (15).
    const ofMessage = calls.tokenize.filter((t) => t === text).length;
    expect(ofMessage).toBeGreaterThan(0);
    expect(ofMessage).toBeLessThanOrEqual(6);
  });
});
