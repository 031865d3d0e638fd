import { describe, expect, it } from 'vitest';
import { classifyConfirmation } from '../../src/extract/index.js';

const labels = { confirmLabel: 'Looks Good', editLabel: 'Edit Answers' };

describe('classifyConfirmation (seed cases 1.2.1 and 1.2.2)', () => {
  it.each(['ok', 'Okay', 'yes', "Yes, that's correct", 'correct', 'proceed', 'looks good', 'Looks Good', 'all good 👍'])(
    'confirms on %j',
    (text) => expect(classifyConfirmation(text, labels)).toBe('confirm'),
  );

  it.each(['Edit', "That's wrong", 'no', 'change the visit type', 'yes but change the contact', 'not correct', 'Edit Answers', 'hmm', 'is that everything?', ''])(
    'edits on %j (anything that is not a confirmation)',
    (text) => expect(classifyConfirmation(text, labels)).toBe('edit'),
  );

  it('uses the flow\'s own labels', () => {
    const custom = { confirmLabel: 'Send request', editLabel: 'Change something' };
    expect(classifyConfirmation('send request', custom)).toBe('confirm');
    expect(classifyConfirmation('change something', custom)).toBe('edit');
  });
});
