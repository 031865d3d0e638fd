import type { Meta, StoryObj } from '@storybook/react-vite';
import { useState } from 'react';
import { expect, fn, userEvent, waitFor, within } from 'storybook/test';
import { ChatView, ChatWidget } from '../src/react/ChatWidget.js';
import { createLocalTransport } from '../src/react/local-transport.js';
import { flowWorkflow } from '../src/flow/workflow.js';
import type { Conversation, ConversationStatus } from '../src/react/use-conversation.js';
import type { Button } from '../src/flow/reply.js';
import { conversationOf, patientIntake, playIntake, withPendingTurn, type Played, type Step } from './patient-intake-script.js';

/**
 * Every state a person can see in the chat widget. The state stories render
 * `ChatView` with a `Conversation` made from real replies of the example flow
 * (played in a loader with the conversation API); the buttons and the input
 * call the actions below instead of a server. `Interactive` runs the whole
 * widget on the compiled flow through the local transport.
 */
interface ChatStoryArgs {
  title: string;
  sendText: (text: string) => void;
  press: (button: Button) => void;
  retry: () => void;
  restart: () => void;
}

interface Loaded {
  played: Played;
}

/** A state story: where the script gets to, what the widget is doing there, and any error. */
function state(
  steps: Step[],
  status: ConversationStatus,
  options: { pending?: string; error?: Conversation['error'] } = {},
): Pick<Story, 'loaders' | 'render'> {
  return {
    loaders: [
      async (): Promise<Loaded> => {
        const played = await playIntake(steps);
        return { played: options.pending ? withPendingTurn(played, options.pending) : played };
      },
    ],
    render: ({ title, sendText, press, retry, restart }, { loaded }) => (
      <ChatView
        title={title}
        conversation={conversationOf((loaded as Loaded).played, status, { sendText, press, retry, restart }, options.error ?? null)}
      />
    ),
  };
}

const meta = {
  title: 'ChatWidget',
  args: {
    title: 'Patient intake',
    sendText: fn(),
    press: fn(),
    retry: fn(),
    restart: fn(),
  },
  argTypes: {
    title: { control: 'text' },
  },
  decorators: [
    (Story) => (
      <div style={{ maxWidth: '40rem' }}>
        <Story />
      </div>
    ),
  ],
} satisfies Meta<ChatStoryArgs>;

export default meta;
type Story = StoryObj<typeof meta>;

const YES_NO_PARTIAL_DONE: Step[] = [{ text: 'We have it all on file' }, { button: 'Partial' }];
const ALL_ANSWERED: Step[] = [
  { button: 'Yes' },
  { text: 'a short lapse once' },
  { text: 'Follow-up after her surgery' },
  { button: 'Minor' },
  { text: 'text me' },
];

/** The first question, with its buttons and the text box. */
export const FirstGate: Story = {
  ...state([], 'idle'),
  play: async ({ canvasElement, args }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByText(/Do we have the patient's information available/)).toBeVisible();
    await userEvent.click(canvas.getByRole('button', { name: 'Yes' }));
    await expect(args.press).toHaveBeenCalledWith({ label: 'Yes', value: 'Yes' });
  },
};

/** A later gate (visit type) with its five category buttons, after a typed and a pressed answer. */
export const GateWithButtons: Story = {
  ...state(YES_NO_PARTIAL_DONE, 'idle'),
  play: async ({ canvasElement, args }) => {
    const canvas = within(canvasElement);
    const choices = canvas.getByRole('group', { name: 'Choices' });
    await expect(within(choices).getAllByRole('button').map((b) => b.textContent)).toEqual([
      'New patient',
      'Follow-up',
      'Urgent care',
      'Telehealth',
      'Emergency',
    ]);
    await userEvent.type(canvas.getByLabelText('Your answer'), 'a video call{Enter}');
    await expect(args.sendText).toHaveBeenCalledWith('a video call');
  },
};

/**
 * The person has answered in words; extraction runs: the thinking indicator, no buttons, and Send
 * disabled. The text box takes typing meanwhile; Enter sends nothing until the reply is in.
 */
export const ExtractionInProgress: Story = {
  ...state(YES_NO_PARTIAL_DONE, 'sending', { pending: "It's a follow-up after her knee surgery" }),
  play: async ({ canvasElement, args }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByRole('status')).toHaveTextContent('Thinking…');
    await expect(canvas.queryByRole('group', { name: 'Choices' })).toBeNull();
    const input = canvas.getByLabelText('Your answer');
    await expect(input).toBeEnabled();
    await userEvent.type(input, 'an adult{Enter}');
    await expect(input).toHaveValue('an adult');
    await expect(args.sendText).not.toHaveBeenCalled();
    await expect(canvas.getByRole('button', { name: 'Send' })).toBeDisabled();
  },
};

/** Text the matcher could not read: the "having trouble understanding" reply, with the buttons again. */
export const ExtractionFailed: Story = {
  ...state([{ button: 'Yes' }, { button: 'No' }, { text: 'hmm, what do you mean?' }], 'idle'),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByText(/having trouble understanding your response/)).toBeVisible();
    await expect(within(canvas.getByRole('group', { name: 'Choices' })).getAllByRole('button')).toHaveLength(5);
  },
};

/** Every gate answered: the summary card with the answers, and the confirm / edit buttons. */
export const SummaryAwaitingConfirmation: Story = {
  ...state(ALL_ANSWERED, 'idle'),
  play: async ({ canvasElement, args }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByRole('heading', { name: 'Summary of Collected Information' })).toBeVisible();
    const group = canvas.getByRole('group', { name: 'Confirm or edit' });
    // The confirm button is the one that sends: the text box has no Send button of its own here.
    await expect(canvas.queryByRole('button', { name: 'Send' })).toBeNull();
    await userEvent.click(within(group).getByRole('button', { name: 'Looks Good' }));
    await expect(args.press).toHaveBeenCalledWith({ label: 'Looks Good', value: 'confirm' });
  },
};

/** A limiting value (an emergency, said in words, then confirmed at its check) ends the intake with the flow's stop message. */
export const StoppedByLimitingValue: Story = {
  ...state([{ button: 'Yes' }, { button: 'No' }, { text: 'He has chest pain right now' }, { text: 'yes' }], 'finished'),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByText(/This sounds like an emergency/)).toBeVisible();
    await expect(canvas.getByText('Finished.')).toBeVisible();
    await expect(canvas.queryByLabelText('Your answer')).toBeNull();
  },
};

/** Confirmed: the handoff message and the finished state, no input left. */
export const HandedOff: Story = {
  ...state([...ALL_ANSWERED, { button: 'Looks Good' }], 'finished'),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByText('Finished: handed off.')).toBeVisible();
    await expect(canvas.queryByRole('button', { name: 'Send' })).toBeNull();
  },
};

/** "Start over" in the middle of an intake asks first; "Keep going" keeps the conversation. */
export const StartOverAsks: Story = {
  ...state(YES_NO_PARTIAL_DONE, 'idle'),
  play: async ({ canvasElement, args }) => {
    const canvas = within(canvasElement);
    await userEvent.click(canvas.getByRole('button', { name: 'Start over' }));
    const ask = canvas.getByRole('alertdialog');
    await expect(ask).toHaveTextContent('Start over? The answers given in this conversation will be discarded.');
    await expect(within(ask).getByRole('button', { name: 'Keep going' })).toHaveFocus();
    await userEvent.click(within(ask).getByRole('button', { name: 'Keep going' }));
    await expect(canvas.queryByRole('alertdialog')).toBeNull();
    await expect(args.restart).not.toHaveBeenCalled();
    // Asked again, and this time discarded.
    await userEvent.click(canvas.getByRole('button', { name: 'Start over' }));
    await expect(canvas.getByRole('alertdialog')).toBeVisible();
  },
};

/** The server could not be reached while sending a turn: the error and Retry. */
export const ServerError: Story = {
  ...state(YES_NO_PARTIAL_DONE, 'failed', {
    pending: 'Telehealth',
    error: { code: 'network', message: 'cannot reach the server: Failed to fetch' },
  }),
  play: async ({ canvasElement, args }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByRole('alert')).toHaveTextContent('Something went wrong: cannot reach the server');
    await userEvent.click(canvas.getByRole('button', { name: 'Retry' }));
    await expect(args.retry).toHaveBeenCalledOnce();
  },
};

function InteractiveWidget({ title }: { title: string }) {
  // One runtime per mounted story, in the page: the in-memory store and the offline matcher.
  const [transport] = useState(() => createLocalTransport({ workflows: [flowWorkflow(patientIntake)] }));
  return <ChatWidget transport={transport} flowId="patient-intake" title={title} />;
}

/** The real widget on the compiled example flow, through the local transport: click, type, confirm. */
export const Interactive: Story = {
  render: ({ title }) => <InteractiveWidget title={title} />,
  // The real conversation handles the buttons and the input: the stand-in actions play no part.
  argTypes: Object.fromEntries(['sendText', 'press', 'retry', 'restart'].map((name) => [name, { table: { disable: true } }])),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(await canvas.findByRole('button', { name: 'Yes' }));
    await expect(await canvas.findByText(/history of inconsistencies in their insurance coverage/)).toBeVisible();
    // Typed: the offline matcher reads "one gap" as Partial and the next question follows.
    const input = canvas.getByLabelText('Your answer');
    await waitFor(() => expect(input).toBeEnabled());
    await userEvent.type(input, 'there was one gap{Enter}');
    await expect(await canvas.findByText('What kind of visit is this?')).toBeVisible();
  },
};
