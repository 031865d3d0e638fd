/**
 * The viewer shows replies as plain text (issue 25): the Markdown escapes a
 * reply puts before a person's marks (`escapeMarkdown`: `\<b\>`) are read
 * once, so `<b>` shows as `<b>`, never `\<b\>`, and never as markup.
 */
import { describe, expect, it } from 'vitest';
import { shortText, statusWord, turnText } from '../../demo/viewer/words.js';
import { escapeMarkdown } from '../../src/flow/messages.js';

describe('shortText', () => {
  it.each([
    ['<b>bold</b> & <script>x</script>'],
    ['5 * 3 = 15, a_b_c, [link](x) #tag `code` ~x~ |pipe| back\\slash'],
    ['**not bold** __nor this__'],
  ])('a person\'s text escaped for Markdown reads as it was typed: %s', (typed) => {
    expect(shortText(`Your previous answer: ${escapeMarkdown(typed)}`, 500)).toBe(`Your previous answer: ${typed}`);
  });

  it('a summary line with escapes and bold marks reads as plain text, escaped once', () => {
    const message = `## Summary\n\n**Problem Statement:** ${escapeMarkdown('my <b>printer</b>')}\n→ ${escapeMarkdown('\\<b\\>')}`;
    expect(shortText(message, 500)).toBe('Summary Problem Statement: my <b>printer</b> → \\<b\\>');
  });

  it('still cuts long texts', () => {
    expect(shortText(escapeMarkdown('<'.repeat(300)), 10)).toBe(`${'<'.repeat(9)}…`);
  });
});

describe('statusWord', () => {
  it('a finished session says how it ended: a stop is "stopped", never "done" nor "completed"', () => {
    expect(statusWord('done', 'stopped')).toBe('stopped');
    expect(statusWord('done', 'stopped_limiting_value')).toBe('stopped');
    expect(statusWord('done', 'completed')).toBe('completed');
    expect(statusWord('done', 'handed_off')).toBe('handed off');
    expect(statusWord('cancelled', 'cancelled')).toBe('cancelled');
  });

  it('other statuses, and a reason the viewer does not know, keep the status', () => {
    expect(statusWord('active', 'awaiting_answer')).toBe('active');
    expect(statusWord('waiting', 'awaiting_input')).toBe('waiting');
    expect(statusWord('failed', 'failed')).toBe('failed');
    expect(statusWord('done', 'some_agent_reason')).toBe('done');
    expect(statusWord('done')).toBe('done');
  });
});

describe('turnText', () => {
  const offered = [
    { label: 'Change an answer', value: 'edit' },
    { label: '← Back to the summary', value: 'back' },
  ];

  it('a button turn shows the label of the button the person clicked, not its value', () => {
    expect(turnText({ button: 'back' }, offered)).toBe('Pressed “← Back to the summary”');
    expect(turnText({ button: 'edit' }, offered)).toBe('Pressed “Change an answer”');
  });

  it('without the buttons offered before it (or one not among them), the value', () => {
    expect(turnText({ button: 'back' })).toBe('Pressed “back”');
    expect(turnText({ button: 'back' }, null)).toBe('Pressed “back”');
    expect(turnText({ button: 'yes' }, offered)).toBe('Pressed “yes”');
    expect(turnText({ text: 'back' }, offered)).toBe('Typed “back”');
  });
});
