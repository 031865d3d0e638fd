import type { Meta, StoryObj } from '@storybook/react-vite';
import { useState } from 'react';
import { expect, fireEvent, userEvent, waitFor, within } from 'storybook/test';
import { ChatWidget, type Notify } from '../src/react/ChatWidget.js';
import { InputsInbox } from '../src/react/InputsInbox.js';
import { createStage, deliveryCheck, refundApproval, refundAtTheWait, type Stage } from './input-gates-script.js';

/**
 * Input gates as people see them: the customer whose conversation waits for
 * a manager, the manager's inbox with a form per gate (the control that fits
 * its type), a refused value, a deadline that passes, a cancelled request,
 * and a person answering their own gates in the chat, in both notify modes
 * (`inline`, and `badge`: the seed's shush mode). Every story runs the real
 * widget and inbox on a runtime in the page (local transports sharing one
 * runtime, as two pages share a server), so what they show is what the
 * runtime does.
 */
interface GateStoryArgs {
  notify: Notify;
}

interface Loaded {
  stage: Stage;
  /** The session the story opens on (at the manager's approval, or just started). */
  sessionId: string;
}

const meta = {
  title: 'InputGates',
  args: { notify: 'inline' },
  argTypes: { notify: { control: 'inline-radio', options: ['inline', 'badge'] } },
  decorators: [
    (Story) => (
      <div style={{ maxWidth: '60rem' }}>
        <Story />
      </div>
    ),
  ],
} satisfies Meta<GateStoryArgs>;

export default meta;
type Story = StoryObj<typeof meta>;

const loadedOf = (context: { loaded: unknown }) => context.loaded as Loaded;

/** A refund request at the manager's approval. */
const atTheWait = async (): Promise<Loaded> => {
  const stage = createStage([refundApproval]);
  return { stage, sessionId: await refundAtTheWait(stage.runtime) };
};

/** A delivery check just started: its four gates wait for the person in the chat, or for `to`. */
const deliveryStarted = (to?: string) => async (): Promise<Loaded> => {
  const flow = deliveryCheck(to);
  const stage = createStage([flow]);
  return { stage, sessionId: (await stage.runtime.start(flow.id)).sessionId };
};

/** The customer's widget on the session, with a transport of its own. */
function Customer({ stage, sessionId, notify, flowId = refundApproval.id, title = 'Refund request' }: Loaded & { notify: Notify; flowId?: string; title?: string }) {
  const [transport] = useState(() => stage.transport());
  return <ChatWidget transport={transport} flowId={flowId} sessionId={sessionId} notify={notify} title={title} />;
}

/** The manager's inbox, with a transport of its own. */
function Manager({ stage }: { stage: Stage }) {
  const [transport] = useState(() => stage.transport());
  return <InputsInbox transport={transport} title="Manager's inbox" />;
}

/** The customer and the manager side by side: one runtime, two pages. */
function SideBySide(props: Loaded & { notify: Notify }) {
  return (
    <div style={{ display: 'grid', gridTemplateColumns: '1fr 1fr', gap: '1rem', alignItems: 'start' }}>
      <Customer {...props} />
      <Manager stage={props.stage} />
    </div>
  );
}

const WAITING_LINE = /^Waiting for a manager: Approve the refund\?, Approved amount \(EUR\) · due in/;

/** The customer's conversation waits for a manager: the wait and its deadline, the count in the header, no text box, a way to withdraw. */
export const Waiting: Story = {
  loaders: [atTheWait],
  render: ({ notify }, context) => <Customer {...loadedOf(context)} notify={notify} />,
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const waiting = await canvas.findByRole('list', { name: 'Waiting for others' });
    await expect(within(waiting).getAllByRole('listitem').map((li) => li.textContent)).toEqual([expect.stringMatching(WAITING_LINE)]);
    await expect(canvas.getByRole('status', { name: '2 answers pending' })).toHaveTextContent('2');
    await expect(canvas.getByText(/needs a manager's approval/)).toBeVisible();
    // Typing cannot answer the manager's gates: there is nothing to type in.
    await expect(canvas.queryByLabelText('Your answer')).toBeNull();
    await expect(canvas.getByRole('button', { name: 'Cancel request' })).toBeVisible();
  },
};

/** The same wait in badge mode: only the count, as a button that opens the list. */
export const WaitingBadge: Story = {
  ...Waiting,
  args: { notify: 'badge' },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const badge = await canvas.findByRole('button', { name: '2 answers pending' });
    await expect(badge).toHaveAttribute('aria-expanded', 'false');
    await expect(canvas.queryByRole('list', { name: 'Waiting for others' })).toBeNull();
    await expect(canvas.queryByLabelText('Your answer')).toBeNull();
    await userEvent.click(badge);
    await expect(badge).toHaveAttribute('aria-expanded', 'true');
    const waiting = await canvas.findByRole('list', { name: 'Waiting for others' });
    await expect(within(waiting).getByRole('listitem')).toHaveTextContent(WAITING_LINE);
  },
};

/** The controls of the manager's inbox, one gate of each type: Yes / No, a whole number with its bounds, a select, a date. */
async function expectEveryControl(canvasElement: HTMLElement) {
  const canvas = within(canvasElement);
  await canvas.findByRole('radio', { name: 'Yes' });
  await expect(canvas.getByRole('radio', { name: 'No' })).not.toBeChecked();
  const parcels = canvas.getByRole('spinbutton', { name: 'How many parcels?' });
  await expect(parcels).toHaveAttribute('min', '1');
  await expect(parcels).toHaveAttribute('max', '10');
  const condition = canvas.getByRole('combobox', { name: 'In what condition?' });
  await expect(within(condition).getAllByRole('option').map((o) => o.textContent)).toEqual(['Choose…', 'Intact', 'Box damaged', 'Contents damaged']);
  await expect(canvas.getByLabelText('Delivered on', { selector: 'input' })).toHaveAttribute('type', 'date');
  await expect(canvas.getByRole('status', { name: '4 waiting for an answer' })).toBeVisible();
}

/** Clicks "Answer" in the form of a control. */
const answerFor = (control: HTMLElement) => userEvent.click(within(control.closest('form')!).getByRole('button', { name: 'Answer' }));

/**
 * The manager's inbox with one gate of each type, each with the control that fits
 * it. "Yes" answered: its form goes, the others stay with what they show.
 */
export const Answering: Story = {
  loaders: [deliveryStarted('manager')],
  render: (_args, context) => <Manager stage={loadedOf(context).stage} />,
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expectEveryControl(canvasElement);
    const yes = canvas.getByRole('radio', { name: 'Yes' });
    await userEvent.click(yes);
    await answerFor(yes);
    await canvas.findByText('Answered “Did the parcel arrive?”: Yes.');
    await expect(canvas.queryByRole('radio', { name: 'Yes' })).toBeNull();
    await expect(canvas.getByRole('status', { name: '3 waiting for an answer' })).toBeVisible();
  },
};

/** Every type answered from its control (a number typed, an option selected, a date picked), one after another: the list empties. */
export const AnsweredEveryType: Story = {
  ...Answering,
  play: async ({ canvasElement, loaded }) => {
    const canvas = within(canvasElement);
    await expectEveryControl(canvasElement);
    const yes = canvas.getByRole('radio', { name: 'Yes' });
    await userEvent.click(yes);
    await answerFor(yes);
    await userEvent.type(await canvas.findByRole('spinbutton', { name: 'How many parcels?' }), '2{Enter}');
    await userEvent.selectOptions(await canvas.findByRole('combobox', { name: 'In what condition?' }), 'Box damaged');
    await answerFor(canvas.getByRole('combobox', { name: 'In what condition?' }));
    fireEvent.change(await canvas.findByLabelText('Delivered on', { selector: 'input' }), { target: { value: '2024-05-02' } });
    await answerFor(canvas.getByLabelText('Delivered on', { selector: 'input' }));
    await canvas.findByText('Nothing is waiting for an answer.');
    await expect(canvas.getByRole('status', { name: 'Answered here' })).toHaveTextContent('Answered “Delivered on”: 2024-05-02.');
    // The values as the flow took them.
    const { stage, sessionId } = loaded as Loaded;
    const { reply } = await stage.runtime.session(sessionId);
    await expect(reply.status).toBe('done');
    await expect((reply as typeof reply & { answers: Record<string, { value: unknown }> }).answers).toMatchObject({
      received: { value: true },
      parcels: { value: 2 },
      condition: { value: 'box_damaged' },
      delivered_on: { value: '2024-05-02' },
    });
  },
};

/**
 * The customer and the manager side by side: the manager answers the amount, then
 * approves; the customer's page follows (one gate left, then the outcome).
 */
export const AnsweredLive: Story = {
  loaders: [atTheWait],
  render: ({ notify }, context) => <SideBySide {...loadedOf(context)} notify={notify} />,
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const amount = await canvas.findByRole('spinbutton', { name: 'Approved amount (EUR)' });
    await userEvent.type(amount, '200{Enter}');
    const waiting = await canvas.findByRole('list', { name: 'Waiting for others' });
    await waitFor(() => expect(within(waiting).getByRole('listitem')).toHaveTextContent(/^Waiting for a manager: Approve the refund\? · due/));
    await userEvent.click(canvas.getByRole('radio', { name: 'Approve' }));
    await userEvent.click(canvas.getByRole('button', { name: 'Answer' }));
    await canvas.findByText(/Good news: a manager approved a refund of 200 EUR for order AB1234/);
    await expect(canvas.getByText('Finished.')).toBeVisible();
    await expect(canvas.queryByRole('button', { name: 'Cancel request' })).toBeNull();
  },
};

/** A value the gate does not allow: refused in words, the form and what was typed kept, nothing saved. */
export const InvalidValue: Story = {
  loaders: [atTheWait],
  render: ({ notify }, context) => <SideBySide {...loadedOf(context)} notify={notify} />,
  play: async ({ canvasElement, loaded }) => {
    const canvas = within(canvasElement);
    const amount = await canvas.findByRole('spinbutton', { name: 'Approved amount (EUR)' });
    const form = within(amount.closest('form')!);
    // Nothing typed: said here, nothing sent.
    await userEvent.click(form.getByRole('button', { name: 'Answer' }));
    await expect(form.getByRole('alert')).toHaveTextContent('Nothing to send yet. Expected a number of at least 0.');
    // A negative amount: the runtime refuses it.
    await userEvent.type(amount, '-5{Enter}');
    await waitFor(() => expect(form.getByRole('alert')).toHaveTextContent('"-5" is not accepted: That is a negative number (-5). The number must be at least 0 EUR. Expected a number of at least 0.'));
    await expect(amount).toHaveValue(-5);
    await expect(amount).toHaveAttribute('aria-invalid', 'true');
    const { stage, sessionId } = loaded as Loaded;
    await expect((await stage.runtime.inputs({}, { sessionId })).map((g) => g.name)).toEqual(['approved', 'approved_amount']);
    await expect(canvas.getByRole('status', { name: '2 answers pending' })).toBeVisible();
  },
};

/** No manager answered within 24 hours: the deadline passes, and the customer's page shows that a person takes over. */
export const TimedOut: Story = {
  loaders: [atTheWait],
  render: ({ notify }, context) => <SideBySide {...loadedOf(context)} notify={notify} />,
  play: async ({ canvasElement, loaded }) => {
    const canvas = within(canvasElement);
    await canvas.findByRole('list', { name: 'Waiting for others' });
    await (loaded as Loaded).stage.advance(25 * 3_600_000);
    await canvas.findByText(/a person from our support team is taking over your refund request for order AB1234/);
    await expect(canvas.getByText('Finished: handed off.')).toBeVisible();
    await expect(canvas.queryByRole('list', { name: 'Waiting for others' })).toBeNull();
    await canvas.findByText('Nothing is waiting for an answer.');
  },
};

/** The customer withdraws the request: asked first; then the gates leave the manager's inbox. */
export const Cancelled: Story = {
  loaders: [atTheWait],
  render: ({ notify }, context) => <SideBySide {...loadedOf(context)} notify={notify} />,
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await canvas.findByRole('spinbutton', { name: 'Approved amount (EUR)' });
    await userEvent.click(canvas.getByRole('button', { name: 'Cancel request' }));
    const ask = canvas.getByRole('alertdialog');
    await expect(ask).toHaveTextContent('Cancel this request? A manager will no longer be asked, and this conversation ends.');
    await expect(within(ask).getByRole('button', { name: 'Keep waiting' })).toHaveFocus();
    await userEvent.click(within(ask).getByRole('button', { name: 'Cancel the request' }));
    await canvas.findByText(/^Cancelled: this conversation takes no more answers/);
    await expect(canvas.getByText('This conversation was cancelled.')).toBeVisible();
    await canvas.findByText('Nothing is waiting for an answer.');
  },
};

/**
 * The person's own gates, in the chat: a form for each, in the conversation
 * (no second text box beside them). An answer shows as theirs in the transcript.
 */
export const AnsweringInChat: Story = {
  loaders: [deliveryStarted()],
  render: ({ notify }, context) => <Customer {...loadedOf(context)} notify={notify} flowId="delivery-check" title="Delivery check" />,
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const parcels = await canvas.findByRole('spinbutton', { name: 'How many parcels?' });
    await expect(canvas.queryByLabelText('Your answer')).toBeNull();
    await expect(canvas.getByRole('status', { name: '4 answers pending' })).toBeVisible();
    await userEvent.type(parcels, '3{Enter}');
    await waitFor(() => expect(canvas.queryByRole('spinbutton', { name: 'How many parcels?' })).toBeNull());
    const you = canvasElement.querySelectorAll('.gf-message.gf-user');
    await expect(you[you.length - 1]).toHaveTextContent('3');
    await expect(canvas.getByRole('status', { name: '3 answers pending' })).toBeVisible();
  },
};

/** A value the person's own gate does not allow (11 parcels, at most 10): refused beside the form, which stays. */
export const InvalidValueInChat: Story = {
  ...AnsweringInChat,
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const parcels = await canvas.findByRole('spinbutton', { name: 'How many parcels?' });
    await userEvent.type(parcels, '11{Enter}');
    const form = within(parcels.closest('form')!);
    await waitFor(() => expect(form.getByRole('alert')).toHaveTextContent('"11" is not accepted:'));
    await expect(form.getByRole('alert')).toHaveTextContent('Expected a whole number from 1 to 10.');
    await expect(parcels).toHaveValue(11);
    await expect(canvasElement.querySelectorAll('.gf-message.gf-user')).toHaveLength(0);
  },
};

/** The person's own gates in badge mode: the text box stays (a typed answer does), the forms behind the count. */
export const AnsweringInChatBadge: Story = {
  ...AnsweringInChat,
  args: { notify: 'badge' },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const badge = await canvas.findByRole('button', { name: '4 answers pending' });
    await expect(canvas.getByLabelText('Your answer')).toBeVisible();
    await expect(canvas.queryByRole('spinbutton', { name: 'How many parcels?' })).toBeNull();
    await userEvent.click(badge);
    await expect(await canvas.findByRole('spinbutton', { name: 'How many parcels?' })).toBeVisible();
  },
};
