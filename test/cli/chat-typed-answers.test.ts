/**
 * In the terminal chat a number picks a button, except at a question that
 * takes a typed answer (an amount, a count) and offers only "Skip" or "Keep"
 * (the previous answer): there a number is the answer. Found by hand in
 * session 37: correcting a refund amount of 40 EUR to 1 EUR by typing "1"
 * pressed "1) Keep: 40 EUR", and "1" typed at an optional count pressed
 * "1) Skip", so the person's answer was dropped.
 */
import { describe, expect, it } from 'vitest';
import { formatReply, lineToTurn } from '../../src/cli/chat.js';
import { startConversation } from '../../src/flow/conversation.js';
import type { FlowDocumentInput } from '../../src/flow/schema.js';
import { flow } from '../flow/helpers.js';
import { runCli } from '../helpers/cli.js';

const HOUSEHOLD: FlowDocumentInput = {
  id: 'household',
  version: 1,
  nodes: [
    { kind: 'question', id: 'children', prompt: 'How many children live with you?', required: false, answer: { type: 'number', min: 0, max: 20 } },
    { kind: 'question', id: 'contact', prompt: 'Phone or email?', required: false, answer: { type: 'category', categories: ['Phone', 'Email'] } },
    { kind: 'terminal', id: 'done', outcome: 'completed' },
  ],
  edges: [
    { from: 'children', to: 'contact' },
    { from: 'contact', to: 'done' },
  ],
};

describe('a number typed at a question that takes a typed answer', () => {
  it('is the answer, not the "Skip" button; "skip" typed still skips', async () => {
    const c = startConversation(flow(HOUSEHOLD));
    const asked = c.reply();
    expect(asked.buttons).toEqual([{ label: 'Skip', value: 'skip' }]);
    expect(lineToTurn('1', asked)).toEqual({ text: '1' });
    expect(formatReply(asked)).toBe('How many children live with you?\n\n  Skip (type "skip")');
    const next = await c.send(lineToTurn('1', asked));
    expect(next.answers.children?.value).toBe(1);
    expect(lineToTurn('skip', asked)).toEqual({ text: 'skip' });
  });

  it('where the buttons are the answers, a number still picks one (Skip included)', async () => {
    const c = startConversation(flow(HOUSEHOLD));
    const choices = await c.send({ text: '2' });
    expect(formatReply(choices)).toContain('  1) Phone\n  2) Email\n  3) Skip');
    expect(lineToTurn('2', choices)).toEqual({ button: 'Email' });
    expect(lineToTurn('3', choices)).toEqual({ button: 'skip' });
  });

  it('correcting a refund amount: "1" is 1 EUR, not "1) Keep: 40 EUR"', async () => {
    // Order, amount, reason; "2" Change something, "2" the amount, then "1" as the new amount.
    const { stdout, status } = await runCli(['chat', 'refund-approval'], { input: 'AB1234\n40\nlate\n2\n2\n1\n' });
    expect(status).toBe(0);
    const correction = stdout.slice(stdout.lastIndexOf('(Your previous answer: 40 EUR)'));
    expect(correction).toContain('Keep: 40 EUR (type "keep")');
    expect(correction).toContain('Problem Statement: Refund request: Order: AB1234; Amount: 1 EUR; Reason: It arrived late.');
  });
});
