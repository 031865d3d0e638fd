import { describe, expect, it } from 'vitest';
import { roleInWords } from '../../src/inputs/role-words.js';
import { roleInWords as widgetRoleInWords } from '../../src/react/deadline.js';

/** "Waiting for ..." reads as English wherever it is said: the flow's reply and the widget's waiting line. */
describe('roleInWords', () => {
  it.each([
    ['manager', 'a manager'],
    ['auditor', 'an auditor'],
    ['staff', 'staff'],
    ['front-desk-staff', 'front desk staff'],
    ['support', 'support'],
    ['managers', 'managers'],
    ['boss', 'a boss'],
    ['finance-team', 'the finance team'],
    ['front_desk', 'the front desk'],
  ])('%s → %s, in the flow and in the widget', (role, words) => {
    expect(roleInWords(role)).toBe(words);
    expect(widgetRoleInWords(role)).toBe(words);
  });
});
