/**
 * A correction at the summary is read in full only against the answers whose
 * words it holds: "change the preferred contact to phone" is read as the
 * contact question reads it, not as each of the five questions would (the
 * summary used to read it fully against every answer to find which it changes).
 */
import { describe, expect, it, vi } from 'vitest';
import { startConversation } from '../../src/flow/conversation.js';
import { example } from './helpers.js';

// The full readings of the message (ownWordsOnly readings are the quick look at later questions).
const calls = vi.hoisted(() => ({ full: [] as { text: string; categories: readonly string[] }[] }));
vi.mock('../../src/extract/match-category.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/extract/match-category.js')>();
  return {
    ...real,
    readCategory: (...args: Parameters<typeof real.readCategory>) => {
      if (args[2]?.ownWordsOnly !== true) calls.full.push({ text: args[0], categories: args[1].categories });
      return real.readCategory(...args);
    },
  };
});

describe('a correction at the summary', () => {
  it('reads the message in full against the one answer it names, and corrects it', async () => {
    const c = startConversation(example('patient-intake'));
    for (const button of ['Yes', 'No', 'Follow-up', 'Adult', 'Email']) await c.send({ button });
    const text = 'change the preferred contact to phone';
    calls.full.length = 0;
    const reply = await c.send({ text });
    expect(reply.answers['5_preferred_contact']?.value).toBe('Phone');
    expect(reply.buttonContext).toBe('gate_confirmation');
    const read = new Set(calls.full.filter((r) => r.text === text).map((r) => r.categories.join('/')));
    expect([...read]).toEqual(['Phone/Email/Text message/Patient portal']);
  });

  it('still reads a value alone against every answer that may take it', async () => {
    const c = startConversation(example('patient-intake'));
    for (const button of ['Yes', 'No', 'Follow-up', 'Adult', 'Email']) await c.send({ button });
    // No answer named: "text message" is read by the one question whose words it holds, and changes it.
    const reply = await c.send({ text: 'text message please' });
    expect(reply.answers['5_preferred_contact']?.value).toBe('Text message');
  });
});
