import { synopsis, type CommandSpec } from './args.js';
import { exampleFlowNames } from './io.js';
import { wrap } from './wrap.js';

const FLOW = () => `<flow> is a flow document (a JSON file) or the name of an example flow: ${exampleFlowNames().join(', ')}.`;
const MODEL = 'A model reads free text when OPENAI_API_KEY or OPENAI_BASE_URL is set (GATEFLOW_MODEL names it); otherwise the offline matcher alone does.';

const STORE_AND_SERVER =
  'Without --server it opens the store as serve does (PGlite in GATEFLOW_DB_DIR or .gateflow/db, or PostgreSQL at DATABASE_URL); ' +
  'a PGlite directory is locked by a running server: then use --server http://127.0.0.1:3000. ' +
  'With --server, GATEFLOW_TOKEN is sent as the bearer token when set (a server with GATEFLOW_JWT_SECRET needs one; its roles claim lets a manager answer gates addressed to "manager"). ' +
  'Sessions started through a server with logins belong to their users: the store itself shows none of their gates, so ask that server with --server and a token.';

/** `--server URL`, as each command uses the server it asks ("ask", "answer through", "read the session from"). */
const serverOption = (use: string) =>
  ({ type: 'string', value: 'URL', description: `${use} a running server (default: GATEFLOW_SERVER; else the store itself)` }) as const;
/** `--flows DIR` of the commands that open the store: what its sessions run. */
const STORE_FLOWS = { type: 'string', value: 'DIR', description: "the flow documents the store's sessions run (default: the example flows, as serve)" } as const;

/** Every command the CLI takes: its arguments, options and help. */
export const COMMANDS = {
  chat: {
    args: ['<flow>'],
    summary: 'chat with a flow in the terminal, until the conversation is finished',
    options: {
      json: { type: 'boolean', description: 'one JSON turn per input line ({"text": ...} or {"button": ...}), one Reply per output line; a refused line gets {"error": {code, message}}' },
      trace: { type: 'boolean', description: "also write the flow's events (node entries, guards, answers, votes) as JSON lines on stderr" },
    },
    get details() {
      return `Buttons are numbered: type the number to press one; anything else is free text. At a question that takes a typed answer (an amount, a count), a number is the answer, and its Skip or Keep is typed as the word.\nWhile the flow waits for someone else's input (a manager's approval), the session lives in this terminal: /inputs lists the open gates, /input <gate> <value> answers one (by id or name), /cancel ends the session.\n${FLOW()}\nIt may also be a module (.js, .mjs, .ts) whose default export is a workflow.\n${MODEL}`;
    },
  },
  eval: {
    args: ['<flow>', '<cases.jsonl>'],
    summary: 'score the offline matcher on labeled utterances',
    options: {
      json: { type: 'boolean', description: 'print the figures as one JSON object' },
      today: { type: 'string', value: 'YYYY-MM-DD', description: "the date relative answers are read against (\"next week\", \"tomorrow\"); default: today's date (UTC)" },
    },
    get details() {
      return `<cases.jsonl> has one {"gate", "text", "expected"} per line.\nA corpus written on a given day (relative dates) is scored with --today set to that day.\n${FLOW()}`;
    },
  },
  serve: {
    args: [],
    summary: 'serve the HTTP API and the demo page (PGlite in .gateflow/db, or PostgreSQL at DATABASE_URL)',
    options: {
      port: { type: 'string', value: 'N', description: 'the port to listen on (default: PORT, or 3000)' },
      flows: { type: 'string', value: 'DIR', description: 'serve the flow documents in DIR instead of the example flows' },
      'with-examples': { type: 'boolean', description: 'with --flows: serve the example flows too' },
      agents: { type: 'string', value: 'LIST', description: 'the agents to serve, with their routes: task-agent,document-agent (the default), one of them, or none' },
      limits: {
        type: 'string',
        value: 'FILE',
        description:
          'the caps, from a JSON file (or the file GATEFLOW_LIMITS names): {"documents": {maxContentBytes, maxNameLength, maxTextLength, maxProjectsPerOwner, maxDocumentsPerProject, ' +
          'maxChatsPerProject, maxMessagesPerChat, page sizes}, "goal": {maxSteps, maxModelCalls, maxToolCalls, maxPromptBytes, maxStepMs, maxGoalMs}, ' +
          '"act": {maxActMs}, "graph": {maxNodes, maxEdges}, "eventStreams": {perCaller, total}, "maxTurnsPerSession"}; each optional, the others keep their defaults; its values win over the GATEFLOW_MAX_* variables',
      },
      watch: {
        type: 'boolean',
        description:
          'read the flow files again when they change: a new version serves new sessions (sessions started earlier continue on theirs), the same version is replaced; the viewer draws the new one',
      },
      'no-warm-layouts': {
        type: 'boolean',
        description:
          "do not lay out the served flows' drawings ahead: by default, once listening, the server lays out (one at a time, after any the viewer asks for) each drawing the store holds no layout of, so the viewer opens it at once",
      },
      inspect: {
        type: 'boolean',
        description:
          "stream the server's own session actors (flows and agents) to the Stately inspector over WebSocket, at GATEFLOW_INSPECT_URL (default ws://127.0.0.1:8080, where @statelyai/inspect's server listens)",
      },
    },
    details: `The README lists the environment variables it reads.\n${MODEL}`,
  },
  inputs: {
    args: [],
    summary: 'list the open input gates (a manager\'s approval, a value a flow waits for) across sessions',
    options: {
      json: { type: 'boolean', description: 'print the gates as one JSON array' },
      session: { type: 'string', value: 'ID', description: "only this session's gates" },
      workflow: { type: 'string', value: 'ID', description: "only gates of this workflow's sessions" },
      server: serverOption('ask'),
      flows: STORE_FLOWS,
    },
    details: STORE_AND_SERVER,
  },
  input: {
    args: ['<gateId>', '<value>'],
    summary: 'answer one input gate; prints the session\'s new reply',
    options: {
      json: { type: 'boolean', description: 'print the reply as one JSON line' },
      server: serverOption('answer through'),
      flows: STORE_FLOWS,
    },
    details:
      '<value> is text as typed, read by the gate\'s type: yes or no (or the gate\'s own words), 42, 2026-12-01 or "1 December 2026", an email address, one of an enum\'s options, JSON for a json input. ' +
      'A value the gate does not take is refused with what it expects (exit 1), and the gate stays open. ' +
      'A value starting with "-" goes after --: gateflow input <gateId> -- -5\n' +
      STORE_AND_SERVER,
  },
  graph: {
    args: [],
    summary: "print the task agent's graph: its nodes and edges",
    options: {
      json: { type: 'boolean', description: 'print the graph as one JSON object, exactly as GET /api/graph answers' },
      label: { type: 'string', value: 'LABEL', description: 'only nodes with this label, and the edges touching them' },
      server: serverOption('ask'),
    },
    details:
      'Nodes print as "Ticket TICKET-123 {status: open}", edges as "User john.doe -REPORTS-> Ticket TICKET-123". ' +
      'Without --server it opens the store as serve does (PGlite in GATEFLOW_DB_DIR or .gateflow/db, with Apache AGE; or PostgreSQL at DATABASE_URL, which needs AGE installed on the server) and reads the graph shared by sessions without an owner; ' +
      'a PGlite directory is locked by a running server: then use --server http://127.0.0.1:3000. ' +
      "With --server, GATEFLOW_TOKEN is sent as the bearer token when set: on a server with GATEFLOW_JWT_SECRET each token's subject has a graph of its own.",
  },
  validate: {
    args: ['<flow>'],
    summary: 'check a flow document, gate config or checklist: errors and warnings (exit 1 on errors)',
    options: { json: { type: 'boolean', description: 'print the report as JSON' } },
    get details() {
      return FLOW();
    },
  },
  viz: {
    args: ['<flow>'],
    summary: 'draw a flow as written and as its compiled machine, an agent or a machine (the viewer reads the JSON)',
    options: {
      format: {
        type: 'string',
        value: 'mermaid|dot|json|svg',
        description: 'json: the drawing the viewer reads (the flow as written and the machine in full); svg: laid out as the viewer draws it; mermaid, dot: the machine (default: mermaid)',
      },
      level: { type: 'string', value: 'outline|machine', description: 'for svg: the flow as written (default) or the compiled machine' },
    },
    get details() {
      return `${FLOW()}\nIt may also be a module (.js, .mjs, .ts) whose default export is a workflow, an agent (task-agent, document-agent) or a hand-written machine (pathSelection, chatSession).\nThe viewer (npm start, then /viewer) draws the same JSON interactively.`;
    },
  },
  test: {
    args: ['<flow>'],
    summary: 'generate and replay every path through a flow; print its state and transition coverage (exit 1 under 100%)',
    options: {
      out: { type: 'string', value: 'DIR', description: 'write each generated path as a readable script in DIR, one file per path (NNN-<last step>.txt), one line per step: > text "yes"  → <state it leads to>' },
      min: { type: 'string', value: 'PERCENT', description: 'pass (exit 0) when at least PERCENT (0-100) of the states and of the transitions are reached (default: all of them)' },
      json: { type: 'boolean', description: 'print the report as one JSON object (with the paths\' events when --out is given)' },
      conversations: { type: 'string', value: 'DIR', description: 'also replay the conversation tests in DIR (*.json, written by gateflow save-test); fails with the first difference of each (turn, expected, got)' },
    },
    get details() {
      return (
        'Paths come from the model-based search (src/testing/model-based.ts): the events every node kind derives (buttons, texts, numbers around the guards\' literals, extraction and action outcomes), ' +
        'each path replayed on a live machine. What no path reaches is listed with its reason: a guard that never held, a transition no event leads to, a state inside one never reached. ' +
        'A large flow takes seconds (a terminal shows the progress on stderr). Scripts a previous run wrote in DIR (NNN-*.txt) are replaced.\n' +
        FLOW()
      );
    },
  },
  sessions: {
    args: [],
    summary: 'list the sessions, newest first: workflow, version, status, steps and state of each',
    options: {
      json: { type: 'boolean', description: 'print the page as one JSON object, as GET /api/sessions answers ({sessions, nextAfter})' },
      workflow: { type: 'string', value: 'ID', description: "only this workflow's sessions" },
      status: { type: 'string', value: 'STATUS', description: 'only sessions in this status: active, waiting, done, cancelled, failed' },
      after: { type: 'string', value: 'N', description: 'the next page: the number a previous page printed after "more:"' },
      limit: { type: 'string', value: 'N', description: 'at most N sessions (1 to 200, default 50)' },
      server: serverOption('ask'),
    },
    details: STORE_AND_SERVER,
  },
  'save-test': {
    args: ['<sessionId>'],
    summary: 'save a session as a conversation test (gateflow.conversation/1 JSON) that gateflow test --conversations replays',
    options: {
      out: { type: 'string', value: 'FILE', description: 'write the test to FILE (default: print it)' },
      'no-messages': { type: 'boolean', description: "leave the replies' wording out: a change of wording does not fail the test" },
      server: serverOption('read the session from'),
    },
    details:
      'The test holds each turn (text, button, an input answered by name, deadlines passed, a cancel) and what each reply showed: state, status, the answers\' values by gate, the buttons\' values and the message (compared with whitespace normalised; delete a turn\'s "message" not to check its wording). ' +
      'The format is documented in src/testing/conversation-format.ts (ConversationTestSchema).\n' +
      STORE_AND_SERVER,
  },
  replay: {
    args: ['<flow>'],
    summary: "replay a workflow's recorded sessions against a new version of its flow document: same or different, and where first different",
    options: {
      workflow: { type: 'string', value: 'ID', description: "replay this workflow's sessions (default: the flow document's id)" },
      server: { type: 'string', value: 'URL', description: 'read the sessions from a running server (default: GATEFLOW_SERVER)' },
      store: { type: 'boolean', description: 'read the sessions from the store itself (the default without --server)' },
      limit: { type: 'string', value: 'N', description: `the newest N sessions (default ${100})` },
      json: { type: 'boolean', description: 'print {workflowId, flowId, flowVersion, sessions: [{sessionId, steps, same, difference}]} as one JSON object' },
    },
    get details() {
      return (
        'Each session\'s turns are taken again by the flow (on a memory store: nothing is written), and each reply is compared with the recorded one: state, status, answers, buttons and message. ' +
        'Exit 0 when every session is the same, 1 when one differs.\n' +
        `${FLOW()}\n${MODEL}\n${STORE_AND_SERVER}`
      );
    },
  },
  schema: {
    args: [],
    summary: 'print the JSON Schema of flow documents (or of gate configs)',
    options: { 'gate-config': { type: 'boolean', description: 'print the JSON Schema of gate configs instead' } },
  },
} satisfies Record<string, CommandSpec>;

/** `gateflow --help`: every command on a line, then how to get one command's help. */
export function usage(): string {
  // Each command's synopsis, then what it does below it: both wrapped to 80 columns.
  const commands = Object.entries(COMMANDS).flatMap(([name, spec]) => [
    wrap(synopsis(name, spec).replace(/^gateflow /, ''), '  ', ' '.repeat(name.length + 3)),
    wrap(spec.summary, '      '),
  ]);
  return [
    'usage: gateflow <command> [options]',
    '',
    'commands:',
    ...commands,
    '',
    wrap(['gateflow <command> --help prints the help of one command.', FLOW(), MODEL].join('\n')),
  ].join('\n');
}
