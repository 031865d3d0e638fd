/**
 * A question asked again from the summary, with the previous answer shown, keeps it when the person says so in
 * words: "keep", "same as before", and (found by hand) "looks good", "that's fine", "all good", which had been
 * "not understood". Nothing else is taken as keeping it.
 */
import { describe, expect, it } from 'vitest';
import { startConversation } from '../../src/flow/conversation.js';
import { example } from './helpers.js';

async function askedAgain() {
  const c = startConversation(example('patient-intake'));
  for (const button of ['Yes', 'No', 'Follow-up', 'Adult', 'Email']) await c.send({ button });
  const again = await c.send({ text: 'the preferred contact is wrong' });
  expect(again.message).toContain('Your previous answer: Email');
  return c;
}

describe('keeping the previous answer in words', () => {
  it.each(['keep', 'same as before', 'looks good', "that's fine", 'all good', 'it is still right'])('"%s" keeps it', async (text) => {
    const c = await askedAgain();
    const reply = await c.send({ text });
    expect(reply.buttonContext).toBe('gate_confirmation');
    expect(reply.answers['5_preferred_contact']?.value).toBe('Email');
  });

  it.each(['phone', 'looks good but make it phone'])('"%s" does not keep it', async (text) => {
    const c = await askedAgain();
    const reply = await c.send({ text });
    expect(reply.answers['5_preferred_contact']?.value === 'Email' && reply.buttonContext === 'gate_confirmation').toBe(false);
  });
});
