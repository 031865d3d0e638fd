import type { Readable, Writable } from 'node:stream';
import { FlowDocumentError, ReplySchema, flowDocumentJsonSchema, flowWorkflow, gateConfigJsonSchema } from '../flow/index.js';
import { EvalCaseError } from '../testing/evaluate-matcher.js';
import { commandHelp, parseCommandLine } from './args.js';
import { chatInteractive, chatJson } from './chat.js';
import { COMMANDS, usage } from './commands.js';
import { runEval } from './eval.js';
import { wantsColor } from './markdown.js';
import { extractorFromEnv } from './extractor.js';
import { modelFromEnv } from '../extract/model-from-env.js';
import { webSearchFromEnv } from '../document-agent/web-search.js';
import { openTaskAgentChat } from './task-agent-chat.js';
import { ServerConfigError } from '../server/auth.js';
import { DirectoryLockedError } from '../store/dir-lock.js';
import { StoreUnavailableError } from '../store/types.js';
import { EXAMPLE_ACTORS } from './example-actors.js';
import { CliError, EXAMPLE_FLOWS_DIR, NO_DEMO_PAGE, readFlow, readFlowsDir, readText, readWorkflow, resolveFlowPath } from './io.js';
import { serveOptionsFromEnv, servedAgents } from './serve.js';
import { limitsOptions, serveLimits } from './serve-limits.js';
import { runValidate } from './validate.js';
import { watchFlows } from './watch-flows.js';
import { parseMin, runTestFlow } from './test-flow.js';
import { runViz } from './viz.js';
import { DRAWN_MACHINES, bundledLayouts, childProcessCoverage } from './drawings.js';
import { runInput, runInputs, type InputsQuery } from './inputs.js';
import { localInputsSource, remoteInputsSource } from './inputs-source.js';
import { InputQuerySchema, readQuery } from '../server/inputs.js';
import { localGraphReader, remoteGraphReader, runGraph } from './graph.js';
import type { LocalStoreLocation } from './local-store.js';
import { GraphQueryParamsSchema } from '../server/graph.js';
import { SessionQuerySchema } from '../server/sessions.js';
import { localSessionsSource, remoteSessionsSource, runConversationTests, runReplay, runSaveTest, runSessions, type SessionsSource } from './sessions.js';
import type { SessionQuery } from '../runtime/runtime.js';

/** Where `serve --inspect` sends its actors unless GATEFLOW_INSPECT_URL says otherwise: @statelyai/inspect's server's default. */
const DEFAULT_INSPECT_URL = 'ws://127.0.0.1:8080';

/** The general usage (`gateflow --help`). */
export const USAGE = usage();

/** Where the CLI reads and writes: the process's streams, or a test's. */
export interface CliStreams {
  stdin: Readable & { isTTY?: boolean };
  stdout: Writable & { isTTY?: boolean };
  stderr: Writable & { isTTY?: boolean };
}

/** The process's own streams, taken when a run starts (reading process.stdin creates it). */
const processStreams = (): CliStreams => ({ stdin: process.stdin, stdout: process.stdout, stderr: process.stderr });

/** Runs the CLI; returns the exit code. */
export async function main(argv: string[], env: Record<string, string | undefined> = process.env, streams: CliStreams = processStreams()): Promise<number> {
  try {
    return await run(argv, env, streams);
  } catch (error) {
    // A PGlite directory held by another process: one line, no stack trace.
    if (error instanceof DirectoryLockedError) {
      streams.stderr.write(`gateflow: ${error.message}\n`);
      return 1;
    }
    if (error instanceof FlowDocumentError || error instanceof EvalCaseError || error instanceof CliError) {
      streams.stderr.write(`${error.message}\n`);
      return error instanceof CliError ? error.exitCode : 1;
    }
    throw error;
  }
}

async function run(argv: string[], env: Record<string, string | undefined>, streams: CliStreams): Promise<number> {
  const line = parseCommandLine(argv, COMMANDS, USAGE);
  if (line.kind === 'help') {
    streams.stdout.write(`${line.command === undefined ? USAGE : commandHelp(line.command, COMMANDS[line.command as keyof typeof COMMANDS])}\n`);
    return 0;
  }
  const { command, args } = line;
  const text = (name: string) => (typeof line.values[name] === 'string' ? line.values[name] : undefined);
  const flag = (name: string) => line.values[name] === true;
  const values = {
    json: flag('json'),
    trace: flag('trace'),
    format: text('format'),
    level: text('level'),
    port: text('port'),
    flows: text('flows'),
    'gate-config': flag('gate-config'),
    session: text('session'),
    workflow: text('workflow'),
    server: text('server'),
    label: text('label'),
    status: text('status'),
    after: text('after'),
    limit: text('limit'),
    out: text('out'),
    conversations: text('conversations'),
    noMessages: flag('no-messages'),
    store: flag('store'),
    inspect: flag('inspect'),
    watch: flag('watch'),
    noWarmLayouts: flag('no-warm-layouts'),
    withExamples: flag('with-examples'),
    agents: text('agents'),
    limits: text('limits'),
    today: text('today'),
  };

  switch (command) {
    case 'chat': {
      const { extract, note } = await extractorFromEnv(env);
      // The task agent is not a flow file: it chats on the store that holds its graph.
      const agent = args[0] === 'task-agent' ? await openTaskAgentChat(env, (await modelFromEnv(env))?.model) : null;
      const workflow = agent?.workflow ?? (await readWorkflow(args[0]!));
      streams.stderr.write(`${note}\n`);
      const io = { input: streams.stdin, output: streams.stdout };
      const options = {
        actors: { extract, ...EXAMPLE_ACTORS, ...agent?.actors },
        ...(agent && { store: agent.store }),
        ...(values.trace && { onTrace: (event: { type: string }) => void streams.stderr.write(`${JSON.stringify(event)}\n`) }),
      };
      try {
        return values.json ? await chatJson(workflow, io, options) : await chatInteractive(workflow, { ...io, interactive: Boolean(streams.stdin.isTTY), color: wantsColor(streams.stdout, env) }, options);
      } finally {
        await agent?.store.close();
      }
    }
    case 'serve': {
      const port = Number(values.port ?? env.PORT ?? 3000);
      if (!Number.isInteger(port) || port < 0 || port > 65535) throw new CliError(`invalid port "${values.port ?? env.PORT}"`, 2);
      if (values.withExamples && values.flows === undefined) throw new CliError('gateflow serve: --with-examples goes with --flows DIR (the examples are served by default)', 2);
      const agents = servedAgents(values.agents);
      const flows = [...(values.flows === undefined || values.withExamples ? readFlowsDir(EXAMPLE_FLOWS_DIR) : []), ...(values.flows !== undefined ? readFlowsDir(values.flows) : [])];
      const duplicate = flows.find((f, i) => flows.findIndex((g) => g.id === f.id) !== i);
      if (duplicate) throw new CliError(`gateflow serve: two flows have the id "${duplicate.id}" (one of the examples and one in ${values.flows}); rename one, or drop --with-examples`, 2);
      // A limits file's caps win over the GATEFLOW_MAX_* variables.
      const caps = limitsOptions(serveLimits(values.limits, env));
      const settings = { ...serveOptionsFromEnv(env), ...caps.server };
      const { extract, note } = await extractorFromEnv(env);
      // Loaded here: the chat and eval commands need no database driver.
      const { startServer } = await import('../server/node.js');
      const { postgresTimeoutsFromEnv } = await import('../store/postgres-timeouts.js');
      let postgresTimeouts;
      try {
        postgresTimeouts = postgresTimeoutsFromEnv(env);
      } catch (error) {
        throw new CliError(`gateflow: ${(error as Error).message}`, 2);
      }
      // A malformed SEARXNG_URL is a setting to fix, said before anything starts.
      let webSearch;
      try {
        webSearch = webSearchFromEnv(env);
      } catch (error) {
        throw new CliError(`gateflow: ${(error as Error).message}`, 2);
      }
      const workflows = flows.map((flow) => flowWorkflow(flow));
      const { model } = (await modelFromEnv(env)) ?? {};
      const documentAgent = { ...(model && { model }), webSearch, ...caps.documentAgent };
      const server = await startServer({
        ...settings,
        workflows,
        replySchema: ReplySchema,
        actors: { extract, ...EXAMPLE_ACTORS },
        ...(agents.has('task-agent') && { taskAgent: { model, ...caps.taskAgent } }),
        ...(agents.has('document-agent') && { documentAgent }),
        port,
        postgresTimeouts,
        drawnMachines: DRAWN_MACHINES,
        coverage: childProcessCoverage(flows),
        warmLayouts: !values.noWarmLayouts,
        bundledLayouts: bundledLayouts((line) => streams.stderr.write(`${line}\n`)),
        ...(values.inspect && { inspect: { url: env.GATEFLOW_INSPECT_URL?.trim() || DEFAULT_INSPECT_URL } }),
      }).catch((error: unknown) => {
        // Expected failures at start are one line and an exit code, not a stack trace.
        if (error instanceof StoreUnavailableError || error instanceof ServerConfigError) throw new CliError(`gateflow: ${error.message}`, 1);
        if ((error as { code?: unknown }).code === 'EADDRINUSE') throw new CliError(`gateflow: port ${port} is in use (set PORT or --port)`, 1);
        throw error;
      });
      streams.stdout.write(
        `gateflow: listening on ${server.url} (API under /api, OpenAPI at /api/openapi.json)\n` +
          (settings.staticDir ? `gateflow: demo page at ${server.url}/ (add ?inspect for the Stately inspector); viewer at ${server.url}/viewer\n` : `${NO_DEMO_PAGE}\n`) +
          `gateflow: store: ${server.storeDescription}\n` +
          (values.limits !== undefined || env.GATEFLOW_LIMITS?.trim() ? `gateflow: limits: ${values.limits ?? env.GATEFLOW_LIMITS?.trim()}\n` : '') +
          (!agents.has('task-agent')
            ? 'gateflow: task agent off (--agents)\n'
            : server.graph.available
            ? `gateflow: graph: Apache AGE ${server.graph.version} (GET /api/graph); task agent: task-agent (${model ? 'offline reader, then the model' : 'offline reader only: explicit commands'})\n`
            : `gateflow: task agent off: ${server.graph.reason}; flows keep working\n`) +
          (!agents.has('document-agent')
            ? 'gateflow: document agent off (--agents)\n'
            : server.documentAgent
            ? `gateflow: document agent: document-agent (${model ? 'offline reader, then the model' : 'offline reader only: explicit commands'}), web search: ${webSearch ? webSearch.name : 'off (set SEARXNG_URL)'} (POST /api/agent/act)\n`
            : 'gateflow: document agent off: the store holds no SQL tables\n') +
          `gateflow: flows: ${flows.map((f) => `${f.id}@${f.version}`).join(', ')}${values.flows === undefined ? ' (the examples)' : values.withExamples ? ` (the examples and ${values.flows})` : ` (from ${values.flows}; the examples are not served: add --with-examples)`}\n` +
          (values.inspect ? `gateflow: inspector: session actors stream to ${env.GATEFLOW_INSPECT_URL?.trim() || DEFAULT_INSPECT_URL} (the Stately inspector's WebSocket server)\n` : '') +
          `${note}\n` +
          (settings.jwtSecret ? 'gateflow: requests need a bearer JWT (GATEFLOW_JWT_SECRET is set)\n' : ''),
      );
      const flowsDir = values.flows ?? EXAMPLE_FLOWS_DIR;
      const unwatch = values.watch
        ? watchFlows(
            flowsDir,
            () => flows,
            (flow, file) => {
              // The served list is what coverage reads: the new document replaces the old one there too.
              const at = flows.findIndex((f) => f.id === flow.id);
              const before = at >= 0 ? flows[at] : undefined;
              if (at >= 0) flows[at] = flow;
              else flows.push(flow);
              server.register(flowWorkflow(flow));
              const how = !before ? 'new flow' : before.version === flow.version ? 'same version, replaced: its sessions continue on the changed document' : `was ${before.version}: sessions started on it continue on it`;
              streams.stdout.write(`gateflow: ${file} changed: serving ${flow.id}@${flow.version} (${how})\n`);
            },
            (message) => streams.stderr.write(`gateflow: not reloaded: ${message}\n`),
          )
        : () => {};
      if (values.watch) streams.stdout.write(`gateflow: watching ${flowsDir} for changed flow files\n`);
      const stop = () => {
        unwatch();
        void server.close().then(() => process.exit(0));
      };
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
      return new Promise<number>(() => {});
    }
    case 'inputs':
    case 'input': {
      const source = await inputsSource(values, env);
      try {
        if (command === 'inputs')
          return await runInputs(source, inputsQuery(values.session, values.workflow), { json: values.json }, streams.stdout);
        return await runInput(source, args[0]!, args[1]!, { json: values.json, color: wantsColor(streams.stdout, env) }, streams.stdout);
      } finally {
        await source.close();
      }
    }
    case 'graph': {
      const query = graphQuery(values.label);
      const server = values.server ?? (env.GATEFLOW_SERVER?.trim() || undefined);
      if (server !== undefined) return runGraph(remoteGraphReader({ server, token: env.GATEFLOW_TOKEN?.trim() || undefined }), query, { json: values.json }, streams.stdout);
      return runGraph(localGraphReader(await storeLocation(env)), query, { json: values.json }, streams.stdout);
    }
    case 'eval': {
      const { flow } = readFlow(args[0]!);
      return runEval(flow, readText(args[1]!), args[1]!, Boolean(values.json), streams.stdout, evalToday(values.today));
    }
    case 'validate': {
      const path = resolveFlowPath(args[0]!);
      return runValidate(readText(path), path, Boolean(values.json), streams.stdout);
    }
    case 'viz':
      return runViz(args[0]!, values.format ?? 'mermaid', values.level ?? 'outline', streams.stdout);
    case 'test': {
      const min = parseMin(text('min'));
      const { flow } = readFlow(args[0]!);
      const code = await runTestFlow(flow, { json: values.json, out: text('out'), min, progress: streams.stderr.isTTY ? streams.stderr : undefined }, streams.stdout);
      if (values.conversations === undefined) return code;
      // Saved conversations run after the generated paths, offline (the example actors, no model): a test must not depend on one.
      const conversations = await runConversationTests(flowWorkflow(flow), values.conversations, { actors: EXAMPLE_ACTORS });
      streams.stdout.write(`${values.json ? JSON.stringify({ conversations: conversations.results }) : conversations.lines.join('\n')}\n`);
      return code === 0 && conversations.ok ? 0 : 1;
    }
    case 'sessions': {
      const source = await sessionsSource(values, env);
      try {
        return await runSessions(source, sessionsQuery(values), { json: values.json, server: values.server }, streams.stdout);
      } finally {
        await source.close();
      }
    }
    case 'save-test': {
      const source = await sessionsSource(values, env);
      try {
        return await runSaveTest(source, args[0]!, { out: values.out, ...(values.noMessages && { messages: false }) }, streams.stdout);
      } finally {
        await source.close();
      }
    }
    case 'replay': {
      if (values.store && values.server !== undefined) throw new CliError('gateflow replay: give --server URL or --store, not both', 2);
      const { flow } = readFlow(args[0]!);
      const { extract } = await extractorFromEnv(env);
      const source = await sessionsSource(values.store ? { server: undefined, store: true } : values, env);
      try {
        const limit = values.limit === undefined ? undefined : wholeNumber('replay', 'limit', values.limit, 10_000);
        return await runReplay(source, flowWorkflow(flow), { workflowId: values.workflow, json: values.json, ...(limit !== undefined && { limit }), actors: { extract, ...EXAMPLE_ACTORS } }, streams.stdout);
      } finally {
        await source.close();
      }
    }
    case 'schema':
      streams.stdout.write(`${JSON.stringify(values['gate-config'] ? gateConfigJsonSchema() : flowDocumentJsonSchema(), null, 2)}\n`);
      return 0;
    default:
      throw new CliError(`unknown command "${command}"\n\n${USAGE}`, 2);
  }
}

/**
 * Where `inputs` and `input` find gates: a server (`--server`, GATEFLOW_SERVER)
 * over HTTP, or the store `serve` would open, with the flows it would serve.
 */
async function inputsSource(values: { server: string | undefined; flows: string | undefined }, env: Record<string, string | undefined>) {
  const server = values.server ?? (env.GATEFLOW_SERVER?.trim() || undefined);
  if (server !== undefined) return remoteInputsSource({ server, token: env.GATEFLOW_TOKEN?.trim() || undefined });
  const flows = readFlowsDir(values.flows ?? EXAMPLE_FLOWS_DIR);
  const location = await storeLocation(env);
  // The flows' actors as serve has them, for what a session does once it resumes; no note about the model here.
  const { extract } = await extractorFromEnv(env);
  return localInputsSource({
    ...location,
    workflows: flows.map((flow) => flowWorkflow(flow)),
    actors: { extract, ...EXAMPLE_ACTORS },
  });
}

/** Where `sessions`, `save-test` and `replay` read sessions: a server (`--server`, GATEFLOW_SERVER) or the store `serve` would open. */
async function sessionsSource(values: { server: string | undefined; store?: boolean }, env: Record<string, string | undefined>): Promise<SessionsSource> {
  const server = values.store ? undefined : (values.server ?? (env.GATEFLOW_SERVER?.trim() || undefined));
  if (server !== undefined) return remoteSessionsSource({ server, token: env.GATEFLOW_TOKEN?.trim() || undefined });
  return localSessionsSource(await storeLocation(env));
}

/** The filters of `sessions`, checked as the server checks them. */
function sessionsQuery(values: { workflow: string | undefined; status: string | undefined; after: string | undefined; limit: string | undefined }): SessionQuery {
  const queries: Record<string, string[]> = {};
  for (const [name, value] of [['workflowId', values.workflow], ['status', values.status], ['after', values.after], ['limit', values.limit]] as const)
    if (value !== undefined) queries[name] = [value];
  try {
    return readQuery(queries, SessionQuerySchema);
  } catch (error) {
    throw new CliError(`gateflow sessions: ${(error as Error).message.replace(/^workflowId/, '--workflow').replace(/^(status|after|limit)/, '--$1')}`, 2);
  }
}

/** A whole number option from 1 to `max`. */
function wholeNumber(command: string, name: string, text: string, max: number): number {
  const n = Number(text);
  if (!/^\d+$/.test(text) || n < 1 || n > max) throw new CliError(`gateflow ${command}: --${name} must be a whole number from 1 to ${max}, not ${JSON.stringify(text)}`, 2);
  return n;
}

/** `eval --today YYYY-MM-DD`: noon UTC of that day (the readers use the UTC date); absent, now. */
function evalToday(text: string | undefined): Date {
  if (text === undefined) return new Date();
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  const date = m ? new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), 12)) : undefined;
  if (!m || !date || date.getUTCMonth() !== Number(m[2]) - 1 || date.getUTCDate() !== Number(m[3]))
    throw new CliError(`gateflow eval: --today must be a date written YYYY-MM-DD (such as 2026-11-27), not ${JSON.stringify(text)}`, 2);
  return date;
}

/** The store `serve` would open, from the same environment (a wrong setting is a usage error). */
async function storeLocation(env: Record<string, string | undefined>): Promise<LocalStoreLocation> {
  const settings = serveOptionsFromEnv(env);
  const { postgresTimeoutsFromEnv } = await import('../store/postgres-timeouts.js');
  try {
    return { databaseUrl: settings.databaseUrl, dataDir: settings.dataDir, postgresTimeouts: postgresTimeoutsFromEnv(env) };
  } catch (error) {
    throw new CliError(`gateflow: ${(error as Error).message}`, 2);
  }
}

/** The filters of `inputs`, checked as the server checks them (a malformed id is a usage error). */
function inputsQuery(sessionId: string | undefined, workflowId: string | undefined): InputsQuery {
  const queries: Record<string, string[]> = {};
  if (sessionId !== undefined) queries.sessionId = [sessionId];
  if (workflowId !== undefined) queries.workflowId = [workflowId];
  try {
    return readQuery(queries, InputQuerySchema);
  } catch (error) {
    throw new CliError(`gateflow inputs: ${(error as Error).message.replace(/^sessionId/, '--session').replace(/^workflowId/, '--workflow')}`, 2);
  }
}

/** `--label`, checked as the server checks it (a malformed label is a usage error, before any store is opened). */
function graphQuery(label: string | undefined): { label?: string } {
  if (label === undefined) return {};
  try {
    return readQuery({ label: [label] }, GraphQueryParamsSchema);
  } catch (error) {
    throw new CliError(`gateflow graph: --${(error as Error).message}`, 2);
  }
}

// Run when executed directly (tsx src/cli/main.ts ...), not when imported.
if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  process.exitCode = await main(process.argv.slice(2));
}
