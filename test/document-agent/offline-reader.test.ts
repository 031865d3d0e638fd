import { describe, expect, it } from 'vitest';
import { readOffline, type OfflineReading } from '../../src/document-agent/offline-reader.js';
import { AgentDecisionSchema, EditOperationSchema, decisionOf } from '../../src/document-agent/schemas.js';

/**
 * The document agent's offline reader (seed 002, 3b and 4a-4f): the explicit
 * commands it reads exactly, in several phrasings, and the near misses it
 * leaves to a model.
 */

const DOCS = [
  { id: 1, name: 'Recipes' },
  { id: 2, name: 'Travel Guide' },
  { id: 3, name: 'Budget' },
];
const REASONING = 'Read offline: an explicit command.';

/** A reading that fits the schemas: the decision as the model would send it, the edit as the agent applies it. */
function read(message: string, documents = DOCS): OfflineReading {
  const reading = readOffline(message, documents);
  if (!reading) throw new Error(`no reading for ${JSON.stringify(message)}`);
  expect(AgentDecisionSchema.parse(reading.decision)).toEqual(reading.decision);
  if (reading.edit) expect(EditOperationSchema.parse(reading.edit)).toEqual(reading.edit);
  expect(reading.decision.reasoning).toBe(REASONING);
  return reading;
}

const created = (name: string): OfflineReading => ({
  decision: decisionOf({
    should_create: true,
    document_name: name,
    document_content: '',
    intent_statement: `I'll create a new document called '${name}'`,
    content_summary: 'The document is empty for now: tell me what to put in it.',
    reasoning: REASONING,
  }),
  edit: null,
});

describe('create a document', () => {
  it.each([
    ['Create a document called Recipes', 'Recipes'],
    ['create a new document named Meeting Notes.', 'Meeting Notes'],
    ["Make a new doc titled 'Packing List'", 'Packing List'],
    ['start a note called Ideas!', 'Ideas'],
    ['Add a page called "Q3 Plan"', 'Q3 Plan'],
    ['new document called Garden', 'Garden'],
    ['New doc named: Reading List', 'Reading List'],
    ['Please create a blank document called Mom’s Recipes, please', 'Mom’s Recipes'],
    ['Could you make me a document entitled “Travel 2025”?', 'Travel 2025'],
    ["let's start a new page named R&D", 'R&D'],
    ["I'd like a new document called Wedding", 'Wedding'],
    ['I want you to create a doc called Gift Ideas', 'Gift Ideas'],
    ["create a document 'Pros and Cons'", 'Pros and Cons'],
    ["make a new 'Budget 2026' document", 'Budget 2026'],
    ["create a document called 'Notes: 2024'", 'Notes: 2024'],
    ["create a document called 'Mom's Recipes'", "Mom's Recipes"],
    ['create a document called `**Bold**`', '**Bold**'],
  ])('%s', (message, name) => {
    expect(read(message)).toEqual(created(name));
  });

  it('still returns the create decision when the name exists (duplicates are handled later)', () => {
    expect(read('create a document called budget')).toEqual(created('budget'));
  });
});

describe('add to a document', () => {
  const added = (id: number, name: string, text: string): OfflineReading => ({
    decision: decisionOf({
      should_edit: true,
      document_id: id,
      intent_statement: `I'll add this to the ${name} document.`,
      change_summary: `Added your text at the end of '${name}'.`,
      content_summary: `Added your text at the end of '${name}'.`,
      reasoning: REASONING,
    }),
    edit: { kind: 'append', text },
  });

  it.each([
    ['Add this to Recipes: Lasagna with spinach.', 1, 'Lasagna with spinach.'],
    ['append the following to the budget document: - rent 900', 3, '- rent 900'],
    ['add these notes to the Travel Guide:\n\n## Day 1\n- Museum\n', 2, '## Day 1\n- Museum'],
    ['add to RECIPES: pancakes', 1, 'pancakes'],
    ['Append to "Travel Guide": bring an adapter', 2, 'bring an adapter'],
    ['please add this to my Budget doc: coffee: 3 euros', 3, 'coffee: 3 euros'],
    ['put this in Recipes: soup', 1, 'soup'],
    ['add this at the end of Budget: total', 3, 'total'],
  ])('%s', (message, id, text) => {
    const name = DOCS.find((d) => d.id === id)!.name;
    expect(read(message)).toEqual(added(id, name, text));
  });

  it('takes the document name as stored and the text after the colon verbatim', () => {
    const docs = [{ id: 7, name: 'Notes: 2024' }];
    expect(read("add this to 'Notes: 2024': first *item*", docs)).toEqual(added(7, 'Notes: 2024', 'first *item*'));
  });

  it('asks which document when the name matches none, listing them', () => {
    expect(read('add this to Shopping List: milk').decision).toEqual(
      decisionOf({
        needs_clarification: true,
        clarification_question:
          "I can't find a document called 'Shopping List'. Which document should I add this to? You have: Recipes, Travel Guide, Budget",
        reasoning: REASONING,
      }),
    );
    expect(read('add this to the Shopping List document: milk').edit).toBeNull();
    expect(read('add to Recipes: eggs', []).decision.clarification_question).toBe(
      "I can't find a document called 'Recipes'. Which document should I add this to? There are no documents in this project yet.",
    );
  });

  it.each([
    'add this to Recipes:',
    'add this to Recipes:   \n ',
    'add this to it: milk',
    'add this to the document: milk',
    'add this to the dessert section of Recipes: tiramisu',
    'add this to Recipes and Budget: milk',
    'put in Recipes: soup',
  ])('reads nothing from %j', (message) => {
    expect(readOffline(message, DOCS)).toBeNull();
  });

  it('reads nothing when two colons each end a known name', () => {
    const docs = [
      { id: 1, name: 'Notes' },
      { id: 2, name: 'Notes: 2024' },
    ];
    expect(readOffline('add this to Notes: 2024: text', docs)).toBeNull();
  });
});

describe('delete a section', () => {
  it('gives the seed\'s 4b text word for word for "delete the Budget section from Budget"', () => {
    expect(read('delete the Budget section from Budget')).toEqual({
      decision: decisionOf({
        should_edit: true,
        document_id: 3,
        pending_confirmation: true,
        confirmation_prompt:
          "I'll remove the Budget section from the Budget document. This will delete all budget information. Should I proceed?",
        intent_statement: "I'll remove the Budget section from the Budget document.",
        content_summary: "Removed the Budget section from 'Budget'.",
        reasoning: REASONING,
      }),
      edit: { kind: 'remove_section', heading: 'Budget' },
    });
  });

  it.each([
    ['remove the Flights section from the travel guide document', 2, 'Flights'],
    ['Delete Desserts section from Recipes.', 1, 'Desserts'],
    ["please remove the 'Day 2' section from 'Travel Guide'", 2, 'Day 2'],
    ['delete the section called Hotels from the Travel Guide', 2, 'Hotels'],
    ['erase the Monthly Costs section in the BUDGET doc', 3, 'Monthly Costs'],
    ['Could you get rid of the Snacks section from Recipes?', 1, 'Snacks'],
  ])('%s', (message, id, section) => {
    const name = DOCS.find((d) => d.id === id)!.name;
    const reading = read(message);
    expect(reading.edit).toEqual({ kind: 'remove_section', heading: section });
    expect(reading.decision.document_id).toBe(id);
    expect(reading.decision.pending_confirmation).toBe(true);
    expect(reading.decision.should_edit).toBe(true);
    expect(reading.decision.confirmation_prompt).toBe(
      `I'll remove the ${section} section from the ${name} document. This will delete all ${section.toLowerCase()} information. Should I proceed?`,
    );
  });

  it('asks which document when the name matches none', () => {
    expect(read('delete the Budget section from the Finances document')).toEqual({
      decision: decisionOf({
        needs_clarification: true,
        clarification_question:
          "I can't find a document called 'Finances'. Which document should I remove the Budget section from? You have: Recipes, Travel Guide, Budget",
        reasoning: REASONING,
      }),
      edit: null,
    });
  });

  it.each([
    'delete everything',
    'delete the Budget document',
    'remove the Budget section',
    'remove the section from Budget',
    'delete the last section from Budget',
    'delete all sections from Budget',
    'delete the Budget section from Budget and Recipes',
    'delete the Budget section from Budget?',
    "don't delete the Budget section from Budget",
    'delete the section about costs from Budget',
  ])('reads nothing from %j', (message) => {
    expect(readOffline(message, DOCS)).toBeNull();
  });
});

describe('list the documents', () => {
  it.each([
    'Which documents do I have?',
    'what documents do we have',
    'list my documents',
    'List all the documents in this project.',
    'show my documents',
    'Show me all of my docs',
    'what documents are there?',
    'What documents are in this project?',
    'what are my documents?',
    'can you list the documents please?',
    'how many documents do I have?',
  ])('%s', (message) => {
    expect(read(message)).toEqual({
      decision: decisionOf({
        conversational_response: 'You have 3 documents in this project: Recipes, Travel Guide, Budget.',
        reasoning: REASONING,
      }),
      edit: null,
    });
  });

  it('says "1 document", and how to start when there are none', () => {
    expect(read('list my documents', [{ id: 4, name: 'Recipes' }]).decision.conversational_response).toBe(
      'You have 1 document in this project: Recipes.',
    );
    expect(read('which documents do I have?', []).decision.conversational_response).toBe(
      'There are no documents in this project yet. Ask me to create one, for example: Create a document called Recipes.',
    );
  });

  it.each(['what documents do I have about travel?', 'show my documents and delete Budget', "what's in my project?"])(
    'reads nothing from %j',
    (message) => {
      expect(readOffline(message, DOCS)).toBeNull();
    },
  );
});

describe('document names', () => {
  it('match ignoring case, a leading "the", a trailing " document" and quotes', () => {
    for (const ref of ['travel guide', 'the Travel Guide', 'TRAVEL GUIDE document', "the 'travel guide' document", '"Travel Guide"']) {
      expect(read(`add this to ${ref}: x`).decision.document_id).toBe(2);
    }
  });

  it('prefer the closest form, and abstain when several documents match it', () => {
    const docs = [
      { id: 1, name: 'Budget' },
      { id: 2, name: 'The Budget' },
    ];
    expect(read('add this to the budget: x', docs).decision.document_id).toBe(2);
    expect(read('add this to budget: x', docs).decision.document_id).toBe(1);
    const twins = [
      { id: 1, name: 'Budget' },
      { id: 2, name: 'BUDGET' },
    ];
    expect(readOffline('add this to budget: x', twins)).toBeNull();
  });
});

describe('messages it leaves to a model', () => {
  it.each([
    'Add my favorite recipes',
    'can you create something about travel?',
    "what's in Budget?",
    'add a dessert section to Recipes',
    'create a document called Recipes with my favourite pasta',
    'create a document called Recipes and add my lasagna',
    'Create a document called Recipes. Then add my lasagna.',
    'create a document called Recipes\nwith pasta',
    'create a document about travel',
    'create a document called Recipes?',
    'create a document called',
    'create a document called it',
    'create a document called **Recipes**',
    'create a document called [Recipes](x)',
    'create a document called Re_ci_pes',
    'create a document called <b>Recipes</b>',
    'create a document called Recipes; Travel',
    "create a document called 'Recipes' about food",
    "create a document called 'A' and 'B'",
    'create a Recipes document',
    'add a note: buy milk',
    'summarize the Budget document',
    'hello',
    '',
    '   ',
  ])('%j', (message) => {
    expect(readOffline(message, DOCS)).toBeNull();
  });
});

describe('hostile input', () => {
  it('reads nothing from NUL or other control characters, or a lone surrogate', () => {
    expect(readOffline('create a document called Rec\u0000ipes', DOCS)).toBeNull();
    expect(readOffline('add this to Recipes: a\u0000b', DOCS)).toBeNull();
    expect(readOffline('list my documents\u0007', DOCS)).toBeNull();
    expect(readOffline('create a document called Re\ud800cipes', DOCS)).toBeNull();
  });

  it('reads nothing from a name over 200 characters, and reads one of 200', () => {
    expect(readOffline(`create a document called '${'a'.repeat(201)}'`, DOCS)).toBeNull();
    expect(read(`create a document called '${'a'.repeat(200)}'`).decision.document_name).toHaveLength(200);
    expect(readOffline(`add this to '${'b'.repeat(300)}': x`, DOCS)).toBeNull();
  });

  // A regular expression that backtracks catastrophically would not finish on these at all: the test's timeout catches it.
  it('never throws, and ends, on long or malformed input', () => {
    const inputs = [
      `add this to ${'a '.repeat(5000)}: x`,
      `delete the ${'x section from '.repeat(2000)}Budget`,
      `create a document called ${"'".repeat(5000)}`,
      ':'.repeat(10_000),
      `add this to Recipes: ${'long text '.repeat(20_000)}`,
    ];
    for (const input of inputs) expect(() => readOffline(input, DOCS)).not.toThrow();
    expect(readOffline(inputs[4]!, DOCS)).toBeNull(); // over the length read offline
    expect(readOffline('list my documents', [{ id: 1, name: null as unknown as string }])).toBeNull();
    expect(readOffline(null as unknown as string, DOCS)).toBeNull();
  });
});
