/**
 * `gateflow chat` answers input gates itself (issue 12; the seed's REPL
 * `input <id> <value>`): a chat's session lives in its process, so a gate
 * addressed to a manager is answered there with `/input`, by id or name;
 * `/cancel` ends it. A line that names no command stays an answer.
 */
import { describe, expect, it } from 'vitest';
import { parseChatCommand } from '../../src/cli/chat-commands.js';
import { runCli } from '../helpers/cli.js';

/** `gateflow chat refund-approval` with these lines typed (in this process, no model set); its output and exit code. */
async function chat(lines: string[]) {
  const run = await runCli(['chat', 'refund-approval'], { input: `${lines.join('\n')}\n`, env: { FORCE_COLOR: '', NO_COLOR: '' } });
  return { status: run.status, out: run.stdout, err: run.stderr };
}

/** To the manager's approval: an order, 250 EUR (above the threshold), a reason, confirmed. */
const TO_THE_WAIT = ['AB1234', '250', 'it arrived broken', 'yes'];

describe('input gates in gateflow chat', () => {
  it('reads commands, and only lines that name one', () => {
    expect(parseChatCommand('/inputs')).toEqual({ kind: 'inputs' });
    expect(parseChatCommand('  /input approved_amount 120 EUR ')).toEqual({ kind: 'input', gate: 'approved_amount', value: '120 EUR' });
    expect(parseChatCommand('/input approved')).toMatchObject({ kind: 'usage' });
    expect(parseChatCommand('/cancel')).toEqual({ kind: 'cancel' });
    // Answers that happen to start with "/" are answers.
    expect(parseChatCommand('/inputx 3')).toBeNull();
    expect(parseChatCommand('/ 250')).toBeNull();
    expect(parseChatCommand('AB1234')).toBeNull();
  });

  it('says how to answer for the manager, refuses a value the gate does not take, and goes on after both answers, in any order', async () => {
    const { status, out } = await chat([...TO_THE_WAIT, '/input approved maybe', '/inputs', '/input approved_amount 200', '/input approved yes']);
    expect(status).toBe(0);
    expect(out).toContain('Waiting for a manager: Approve the refund?, Approved amount (EUR).');
    expect(out).toContain('answer for them with /input <gate> <value>');
    // Refused with what the gate expects; the gate stays open (listed, then answered).
    expect(out).toMatch(/input "approved" \(gate in_[a-z2-7]{16}\) still waits: "maybe" is not accepted: .*Expected approve or decline/);
    expect(out).toMatch(/in_[a-z2-7]{16}\s+\S+\s+refund-approval\s+approved\s+approve\/decline\s+manager/);
    // After the amount only the approval is still open; after it, the customer's outcome.
    expect(out).toMatch(/still waiting for:\n\s+in_[a-z2-7]{16}\s+approved \(approve\/decline\) for manager/);
    expect(out).toContain('Good news: a manager approved a refund of 200 EUR for order AB1234.');
    expect(out).toContain('── finished: completed ──');
  });

  it('/cancel ends the request; an unknown gate is said to be unknown and changes nothing', async () => {
    const { status, out } = await chat([...TO_THE_WAIT, '/input in_aaaaaaaaaaaaaaaa yes', '/cancel', '/input approved yes']);
    expect(status).toBe(0);
    expect(out).toContain('no input gate "in_aaaaaaaaaaaaaaaa"');
    expect(out).toContain('── finished: cancelled ──');
    // The chat ended with the cancel: the line after it was never read.
    expect(out).not.toContain('Good news');
  });
});
