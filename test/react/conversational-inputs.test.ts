/**
 * A clarification the agent asks in the chat looks like chat (issue 27 §4):
 * the question is the agent's message, with no "Due in 60 minutes" and no
 * "Expected: text of at most 2000 characters" under it, and a few choices are
 * buttons, not a dropdown. Rendered to markup with react-dom/server; the
 * browser suites show the widget itself.
 */
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { OpenInput } from '../../src/inputs/gate.js';
import { ConversationInputs } from '../../src/react/ConversationInputs.js';
import type { Conversation } from '../../src/react/use-conversation.js';

const QUESTION = 'I see a contradiction in your request: you asked for the status of Ticket T-1 to be both open and closed. Which should it be?';
const deadline = new Date(Date.now() + 60 * 60_000).toISOString();

const gate = (over: Partial<OpenInput>): OpenInput =>
  ({
    gateId: 'in_1',
    sessionId: 's',
    workflowId: 'task-agent',
    name: 'clarification',
    type: 'string',
    description: QUESTION,
    options: null,
    to: null,
    deadline,
    openedAt: new Date().toISOString(),
    spec: { name: 'clarification', type: 'string', minLength: 1, maxLength: 2000, description: QUESTION, deadline: 'PT1H' },
    ...over,
  }) as OpenInput;

const choice = gate({
  name: 'choice',
  type: 'enum',
  options: [
    { label: 'open', value: 'open' },
    { label: 'closed', value: 'closed' },
    { label: 'Do nothing', value: 'stop' },
  ],
  spec: { name: 'choice', type: 'enum', options: [{ label: 'open', value: 'open' }, { label: 'closed', value: 'closed' }, { label: 'Do nothing', value: 'stop' }], description: QUESTION, deadline: 'PT1H' },
});

const render = (input: OpenInput, message: string) =>
  renderToStaticMarkup(
    createElement(ConversationInputs, {
      conversation: { inputs: [input], inputError: null, status: 'waiting', reply: { message }, answer: () => undefined } as unknown as Conversation,
    }),
  );

describe('a question asked in the chat', () => {
  it('has no deadline line and no expected form under it', () => {
    const html = render(gate({}), QUESTION);
    expect(html).not.toMatch(/Due in/);
    expect(html).not.toMatch(/Expected:/);
  });

  it('offers a few choices as buttons, not a dropdown', () => {
    const html = render(choice, QUESTION);
    expect(html).not.toContain('<select');
    expect(html.match(/<button type="button"[^>]*>(open|closed|Do nothing)<\/button>/g)).toHaveLength(3);
  });

  it('a question longer than a gate\'s description (500 characters) is still the chat\'s: the gate holds its start', () => {
    // An agent's long question (a model's long intent, a dropped request's note before it): the machines cut the description at 500.
    const long = `${'I will rewrite every section of the Budget document in a friendlier tone, '.repeat(8)}Proceed?`;
    expect(long.length).toBeGreaterThan(500);
    const html = render(gate({ description: long.slice(0, 500).trim(), spec: { ...choice.spec, description: long.slice(0, 500).trim() } , type: 'enum', options: choice.options }), long);
    expect(html).not.toMatch(/Due in/);
    expect(html).not.toContain('<select');
    // Another message that merely begins the same way is not the question.
    expect(render(gate({ description: 'I will' }), 'I will rewrite it.')).toMatch(/Due in/);
  });

  it('a gate that is not the chat\'s question keeps its deadline, its expected form and its list', () => {
    const html = render(gate({}), 'Something else.');
    expect(html).toMatch(/Due in/);
    expect(html).toMatch(/Expected:/);
    expect(render(choice, 'Something else.')).toContain('<select');
  });
});
