/**
 * An input gate's text field never cuts what is typed or pasted: no
 * `maxlength` (the browser would drop the rest unsaid); the limit is said in
 * the hint, and a longer text is refused by the server with the draft kept.
 */
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { OpenInput } from '../../src/inputs/gate.js';
import { InputForm } from '../../src/react/InputForm.js';

const gate: OpenInput = {
  gateId: 'g1',
  sessionId: 's1',
  workflowId: 'w',
  name: 'note',
  type: 'string',
  description: 'A short note',
  options: null,
  to: null,
  deadline: null,
  openedAt: new Date(0).toISOString(),
  spec: { name: 'note', type: 'string', maxLength: 10, description: 'A short note' },
} as OpenInput;

describe('the text field of an input gate', () => {
  it('has no maxlength, and its hint says the limit', () => {
    const html = renderToStaticMarkup(createElement(InputForm, { input: gate, onAnswer: () => {} }));
    expect(html).toMatch(/<input[^>]*type="text"/);
    expect(html).not.toMatch(/maxlength/i);
    expect(html).toContain('text of at most 10 characters');
  });
});
