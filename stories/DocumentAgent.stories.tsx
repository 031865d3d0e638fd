import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { DocumentAgent } from '../demo/document-agent-panel.js';
import { documentAgentStage, type Stage, type StageOptions } from './document-agent-stage.js';

/**
 * The document agent as the demo page shows it: the chat beside the
 * project's documents (their names, the selected one rendered). Every story
 * runs the real agent (its machine, workflow, runtime and offline reader) in
 * the page, with the documents in memory (./document-agent-stage.ts): a
 * loader sends the story's messages, and the widget opens on the session
 * where they led. The states: the greeting, a document created, a
 * confirmation waiting with Proceed / Cancel, a duplicate name's two
 * choices, a clarification, a model failure; and Proceed pressed, with the
 * document changing beside the chat.
 */
interface DocumentAgentStoryArgs {
  title: string;
}

interface Loaded {
  stage: Stage;
  sessionId: string;
}

const RECIPES = '## Budget\n\nFlour 2 EUR\n\n## Soup\n\n- Leeks\n- **Potatoes**, peeled\n';

/** A story: the agent with these documents (and model), after these messages. */
function at(messages: string[], options: StageOptions = {}): Pick<Story, 'loaders' | 'render'> {
  return {
    loaders: [
      async (): Promise<Loaded> => {
        const stage = documentAgentStage(options);
        return { stage, sessionId: await stage.play(messages) };
      },
    ],
    render: ({ title }, { loaded }) => {
      const { stage, sessionId } = loaded as Loaded;
      return <DocumentAgent source={stage.source} transportFor={() => stage.transport()} title={title} sessionIdFor={() => sessionId} />;
    },
  };
}

const meta = {
  title: 'DocumentAgent',
  args: { title: 'Document agent' },
  argTypes: { title: { control: 'text' } },
  decorators: [
    (Story) => (
      <div style={{ maxWidth: '76rem', fontFamily: 'system-ui, sans-serif' }}>
        <Story />
      </div>
    ),
  ],
} satisfies Meta<DocumentAgentStoryArgs>;

export default meta;
type Story = StoryObj<typeof meta>;

/** The chat and the documents of a story's canvas. */
function parts(canvasElement: HTMLElement) {
  const canvas = within(canvasElement);
  const chat = within(canvas.getByRole('region', { name: 'Document agent' }));
  return {
    canvas,
    chat,
    documents: () => within(canvas.getByRole('region', { name: 'Documents' })),
    /** The agent's last message as read (without the "Assistant: " said to screen readers only). */
    lastReply: () =>
      (chat.getAllByRole('listitem').filter((li) => li.classList.contains('gf-assistant')).at(-1)?.textContent ?? '').replace(/^Assistant: /, ''),
  };
}

/** A new chat in an empty project: the greeting, with an example command, and no documents yet. */
export const Greeting: Story = {
  ...at([]),
  play: async ({ canvasElement }) => {
    const { canvas, chat, documents } = parts(canvasElement);
    await expect(await chat.findByText(/I keep this project's documents/)).toBeVisible();
    await expect(await canvas.findByText('No documents yet: ask the agent to create one.')).toBeVisible();
    await expect(documents().getByText('Project: My Project')).toBeVisible();
    await expect(chat.getByLabelText('Your answer')).toBeEnabled();
  },
};

/** "Create a document called Recipes": the reply (4c), and Recipes listed and selected, empty for now. */
export const Created: Story = {
  ...at(['create a document called Recipes']),
  play: async ({ canvasElement }) => {
    const { canvas, chat, lastReply, documents } = parts(canvasElement);
    await chat.findByText(/I've created the document 'Recipes' in this project\./);
    await expect(lastReply()).toMatch(/Document Content Summary:/);
    const recipes = await documents().findByRole('button', { name: 'Recipes' });
    await expect(recipes).toHaveAttribute('aria-current', 'true');
    const article = canvas.getByRole('article', { name: 'Recipes' });
    await expect(within(article).getByText('This document is empty.')).toBeVisible();
    await expect(within(article).getByText(/^Version 1/)).toBeVisible();
  },
};

/**
 * "Delete the Budget section from Recipes": the agent says what it will do and waits, with
 * Proceed and Cancel as buttons; the text box stays (other words are a new request). The
 * document is shown, its Budget section still there.
 */
export const AwaitingConfirmation: Story = {
  ...at(['delete the Budget section from Recipes'], { documents: [{ name: 'Recipes', content: RECIPES }] }),
  play: async ({ canvasElement }) => {
    const { canvas, chat, lastReply } = parts(canvasElement);
    const choices = await chat.findByRole('group', { name: /Should I proceed\?/ });
    await expect(lastReply()).toBe("I'll remove the Budget section from the Recipes document. This will delete all budget information. Should I proceed?");
    await expect(within(choices).getAllByRole('button').map((b) => b.textContent)).toEqual(['Proceed', 'Cancel']);
    await expect(chat.getByLabelText('Your answer')).toBeEnabled();
    const article = canvas.getByRole('article', { name: 'Recipes' });
    await expect(within(article).getByRole('heading', { name: 'Budget' })).toBeVisible();
  },
};

/** Proceed pressed: the section goes, in the document beside the chat too (version 2). */
export const Proceeded: Story = {
  ...at(['delete the Budget section from Recipes'], { documents: [{ name: 'Recipes', content: RECIPES }] }),
  play: async ({ canvasElement }) => {
    const { canvas, chat, lastReply } = parts(canvasElement);
    await userEvent.click(await chat.findByRole('button', { name: 'Proceed' }));
    await waitFor(() => expect(lastReply()).toMatch(/^I'll remove the Budget section from the Recipes document\.\s*Content Summary:/));
    const article = canvas.getByRole('article', { name: 'Recipes' });
    await waitFor(() => expect(within(article).queryByRole('heading', { name: 'Budget' })).toBeNull());
    await expect(within(article).getByRole('heading', { name: 'Soup' })).toBeVisible();
    await expect(within(article).getByText(/^Version 2/)).toBeVisible();
    await expect(chat.queryByRole('button', { name: 'Proceed' })).toBeNull();
  },
};

/** A name taken (ignoring case): the seed's text (4d) and its two choices as buttons; the existing document is shown. */
export const DuplicateName: Story = {
  ...at(['create a document called recipes'], { documents: [{ name: 'Recipes', content: RECIPES }] }),
  play: async ({ canvasElement }) => {
    const { canvas, chat, lastReply } = parts(canvasElement);
    const choices = await chat.findByRole('group', { name: /already exists in this project/ });
    await expect(lastReply()).toMatch(/^A document named 'Recipes' already exists in this project\./);
    await expect(within(choices).getAllByRole('button').map((b) => b.textContent)).toEqual(["Add this content to 'Recipes'", "Create 'Recipes 2' instead"]);
    await expect(chat.getByLabelText('Your answer')).toBeEnabled();
    await expect(canvas.getByRole('article', { name: 'Recipes' })).toBeVisible();
  },
};

/** A document that does not exist: the agent asks which one, naming those there are (4a); nothing waits, nothing changes. */
export const Clarification: Story = {
  ...at(['add this to Travel: pack light'], { documents: [{ name: 'Recipes', content: RECIPES }] }),
  play: async ({ canvasElement }) => {
    const { canvas, chat, lastReply } = parts(canvasElement);
    await chat.findByText(/I can't find a document called 'Travel'/);
    await expect(lastReply()).toBe("I can't find a document called 'Travel'. Which document should I add this to? You have: Recipes");
    await expect(chat.queryByRole('group', { name: 'Answers pending' })).toBeNull();
    await expect(within(canvas.getByRole('article', { name: 'Recipes' })).getByText(/^Version 1/)).toBeVisible();
  },
};

/** The model fails (HTTP 500) on a request only it can read: a clear message, and nothing written. */
export const ModelFailure: Story = {
  ...at(['Add my favorite recipes'], { documents: [{ name: 'Recipes', content: RECIPES }], modelFails: true }),
  play: async ({ canvasElement }) => {
    const { canvas, chat, lastReply } = parts(canvasElement);
    await chat.findByText(/I couldn't do that/);
    await expect(lastReply()).toMatch(/the language model could not be reached while working out what to do .*Nothing was changed; please send your message again\.$/);
    await expect(canvas.getAllByRole('listitem').filter((li) => li.closest('.da-names')).length).toBe(1);
    await expect(within(canvas.getByRole('article', { name: 'Recipes' })).getByText(/^Version 1/)).toBeVisible();
  },
};
