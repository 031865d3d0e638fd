import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Writable } from 'node:stream';
import type { AnyActorLogic } from 'xstate';
import { GateflowError } from '../error/gateflow-error.js';
import { createRuntime, type SessionList, type SessionQuery } from '../runtime/runtime.js';
import type { JournalTurn } from '../store/types.js';
import { StoreUnavailableError } from '../store/types.js';
import { describeDifference, runConversation, type ConversationDifference, type ConversationResult } from '../testing/conversation.js';
import { conversationOf, parseConversationTest } from '../testing/conversation-format.js';
import type { ReplyEnvelope } from '../workflow/reply.js';
import type { Workflow } from '../workflow/types.js';
import { serverRequester, type ServerAccess } from './inputs-source.js';
import { CliError } from './io.js';
import { openLocalStore, type LocalStoreLocation } from './local-store.js';

/**
 * `gateflow sessions`, `gateflow save-test`, `gateflow replay` and
 * `gateflow test --conversations`: recorded sessions read from the store
 * itself or a running server, kept as conversation tests, and replayed
 * against a flow.
 */

/** Where recorded sessions are read: the store itself, or a server over HTTP. */
export interface SessionsSource {
  list(query: SessionQuery): Promise<SessionList>;
  /** A session's whole journal, oldest first. */
  history(sessionId: string): Promise<{ seq: number; turn: JournalTurn | null; reply: ReplyEnvelope }[]>;
  close(): Promise<void>;
}

/** The most sessions `replay` reads unless told otherwise. */
export const DEFAULT_REPLAY_SESSIONS = 100;

/** The store `serve` opens: reading sessions needs no workflow. */
export async function localSessionsSource(location: LocalStoreLocation): Promise<SessionsSource> {
  const store = await openLocalStore(location);
  const runtime = createRuntime({ workflows: [], store });
  // The terminal's user has no token: they see what a caller without auth sees.
  const caller = { owner: null };
  const refused = (error: unknown): never => {
    if (error instanceof StoreUnavailableError) throw new CliError(`gateflow: ${error.message}`, 1);
    if (error instanceof GateflowError && error.status < 500) throw new CliError(`gateflow: ${error.publicMessage}`, 1);
    throw error;
  };
  return {
    list: (query) => runtime.sessions(caller, query).catch(refused),
    async history(sessionId) {
      const entries: { seq: number; turn: JournalTurn | null; reply: ReplyEnvelope }[] = [];
      for (let after: number | null = 0; after !== null; ) {
        const page: { history: typeof entries; nextAfter: number | null } = await runtime.session(sessionId, caller, { after, limit: 200 }).catch(refused);
        entries.push(...page.history);
        after = page.nextAfter;
      }
      return entries;
    },
    async close() {
      runtime.close();
      await store.close();
    },
  };
}

/** A server's sessions: `GET /api/sessions`, `GET /api/sessions/{id}`, with the bearer token when given. */
export function remoteSessionsSource(access: ServerAccess): SessionsSource {
  const request = serverRequester(access);
  return {
    list(query) {
      const params = new URLSearchParams();
      for (const [name, value] of Object.entries(query)) if (value !== undefined) params.set(name, String(value));
      return request<SessionList>('GET', `/api/sessions${params.size > 0 ? `?${params}` : ''}`);
    },
    async history(sessionId) {
      const entries: { seq: number; turn: JournalTurn | null; reply: ReplyEnvelope }[] = [];
      for (let after: number | null = 0; after !== null; ) {
        const page: { history: typeof entries; nextAfter: number | null } = await request('GET', `/api/sessions/${encodeURIComponent(sessionId)}?after=${after}&limit=200`);
        entries.push(...page.history);
        after = page.nextAfter;
      }
      return entries;
    },
    close: async () => {},
  };
}

const write = (out: Writable, text: string) => out.write(text.endsWith('\n') ? text : `${text}\n`);
const stateText = (state: unknown) => (typeof state === 'string' ? state : JSON.stringify(state));

/** `gateflow sessions`: one page, newest first, as a table (or with `json` the page as the API answers it). */
export async function runSessions(source: SessionsSource, query: SessionQuery, options: { json: boolean; server?: string | undefined }, out: Writable): Promise<number> {
  const page = await source.list(query);
  if (options.json) {
    write(out, JSON.stringify(page));
    return 0;
  }
  if (page.sessions.length === 0) {
    write(out, 'no sessions');
    return 0;
  }
  const rows = [
    ['SESSION', 'WORKFLOW', 'VERSION', 'STATUS', 'STEPS', 'UPDATED', 'STATE'],
    ...page.sessions.map((s) => [s.sessionId, s.workflowId, String(s.flowVersion), s.status, String(s.steps), s.updatedAt.replace(/\.\d+Z$/, 'Z'), stateText(s.state)]),
  ];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  write(out, rows.map((r) => r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  ')).join('\n'));
  if (page.nextAfter !== null) write(out, `more: ${nextPageCommand(query, page.nextAfter, options.server)}`);
  return 0;
}

/** The command that prints the next page: the same filters, page size and server, from `after`. */
function nextPageCommand(query: SessionQuery, after: number, server: string | undefined): string {
  const words = ['gateflow', 'sessions'];
  if (query.workflowId !== undefined) words.push('--workflow', query.workflowId);
  if (query.status !== undefined) words.push('--status', query.status);
  if (query.limit !== undefined) words.push('--limit', String(query.limit));
  if (server !== undefined) words.push('--server', server);
  words.push('--after', String(after));
  // Ids and URLs are plain words; anything else is quoted for the shell.
  return words.map((w) => (/^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`)).join(' ');
}

/** `gateflow save-test <sessionId>`: the session as a conversation test, to a file or stdout. */
export async function runSaveTest(source: SessionsSource, sessionId: string, options: { out?: string | undefined; messages?: boolean }, out: Writable): Promise<number> {
  const history = await source.history(sessionId);
  const test = conversationOf(history, { sessionId, ...(options.messages === false && { messages: false }) });
  const text = `${JSON.stringify(test, null, 2)}\n`;
  if (options.out === undefined) out.write(text);
  else {
    try {
      writeFileSync(options.out, text);
    } catch (error) {
      throw new CliError(`gateflow save-test: cannot write ${options.out}: ${(error as Error).message}`);
    }
    write(out, `saved ${test.turns.length} turns of ${test.workflowId} session ${sessionId} to ${options.out}`);
  }
  return 0;
}

/** Each saved conversation in DIR (*.json), replayed against the workflow: one line each, the first difference of those that fail. */
export async function runConversationTests(
  workflow: Workflow,
  dir: string,
  options: { actors?: Record<string, AnyActorLogic>; /** false: the replies' wording is not checked, even where the tests saved it. */ messages?: boolean },
): Promise<{ ok: boolean; lines: string[]; results: { file: string; result: ConversationResult }[] }> {
  let files: string[];
  try {
    files = readdirSync(dir).filter((f) => f.endsWith('.json')).sort();
  } catch (error) {
    throw new CliError(`gateflow test: cannot read conversations from ${dir}: ${(error as Error).message}`);
  }
  if (files.length === 0) throw new CliError(`gateflow test: no conversation tests (*.json) in ${dir}`);
  const results: { file: string; result: ConversationResult }[] = [];
  const lines: string[] = [];
  for (const file of files) {
    const path = join(dir, file);
    const test = parseConversationTest(readFileSync(path, 'utf8'), path);
    if (test.workflowId !== workflow.id) throw new CliError(`gateflow test: ${path} is a conversation of ${test.workflowId}, not of ${workflow.id}`);
    const result = await runConversation(workflow, test, options);
    results.push({ file, result });
    lines.push(result.ok ? `  ok    ${file} (${result.turns} turns)` : `  FAIL  ${file}: ${describeDifference(result.difference)}`);
  }
  const failed = results.filter((r) => !r.result.ok).length;
  lines.unshift(`conversations: ${results.length - failed}/${results.length} pass`);
  return { ok: failed === 0, lines, results };
}

/** One recorded session replayed: the same all the way, or where it first differs. */
export interface ReplayedSession {
  sessionId: string;
  steps: number;
  same: boolean;
  difference: ConversationDifference | null;
}

/**
 * `gateflow replay <flow-file>`: the recorded sessions of a workflow (newest
 * first, at most `limit`) replayed against this version of it, each step's
 * state, status, answers, buttons and message compared with what was recorded.
 * Exit 0 when every one is the same, 1 otherwise.
 */
export async function runReplay(
  source: SessionsSource,
  workflow: Workflow,
  options: { workflowId?: string | undefined; json: boolean; limit?: number; actors?: Record<string, AnyActorLogic> },
  out: Writable,
): Promise<number> {
  const workflowId = options.workflowId ?? workflow.id;
  const limit = options.limit ?? DEFAULT_REPLAY_SESSIONS;
  const ids: string[] = [];
  for (let after: number | undefined; ids.length < limit; ) {
    const page = await source.list({ workflowId, limit: Math.min(200, limit - ids.length), ...(after !== undefined && { after }) });
    ids.push(...page.sessions.map((s) => s.sessionId));
    if (page.nextAfter === null) break;
    after = page.nextAfter;
  }
  // The recorded sessions ran under `workflowId`; the replay runs them on this document whatever its id.
  const replayed: ReplayedSession[] = [];
  for (const sessionId of ids) {
    const history = await source.history(sessionId);
    const test = { ...conversationOf(history, { sessionId }), workflowId: workflow.id };
    const result = await runConversation(workflow, test, { ...(options.actors && { actors: options.actors }) });
    replayed.push({ sessionId, steps: history.length, same: result.ok, difference: result.ok ? null : result.difference });
  }
  const different = replayed.filter((r) => !r.same).length;
  if (options.json) write(out, JSON.stringify({ workflowId, flowId: workflow.id, flowVersion: workflow.version, sessions: replayed }));
  else {
    write(out, `replayed ${replayed.length} ${workflowId} session${replayed.length === 1 ? '' : 's'} against ${workflow.id}@${workflow.version}: ${replayed.length - different} same, ${different} different`);
    for (const r of replayed) write(out, r.same ? `  same       ${r.sessionId} (${r.steps} steps)` : `  different  ${r.sessionId}: ${describeDifference(r.difference!)}`);
  }
  return different === 0 ? 0 : 1;
}
