import { serve, type ServerType } from '@hono/node-server';
import { serveStatic } from '@hono/node-server/serve-static';
import { relative } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { AnyActorLogic } from 'xstate';
import type { z } from 'zod';
import { createRuntime, type Runtime } from '../runtime/runtime.js';
import { MissingDependencyError } from '../error/optional-dependency.js';
import { DEFAULT_PGLITE_DIR } from '../store/pglite-dir.js';
import { redactUrl } from '../store/connection-secrets.js';
import type { PostgresTimeouts } from '../store/postgres-timeouts.js';
import type { SqlDatabase, Store } from '../store/types.js';
import type { DocumentAgentHostOptions } from '../document-agent/host.js';
import { DocumentAgentModelError } from '../document-agent/errors.js';
import type { TaskAgentHostOptions } from '../task-agent/host.js';
import type { Workflow } from '../workflow/types.js';
import type { AnyStateMachine, InspectionEvent } from 'xstate';
import { createApp } from './app.js';
import type { EventStreamLimits } from './events.js';
import { workerLayouter } from './layout-worker.js';
import type { BundledLayoutLookup } from './bundled-layouts.js';
import { drawingSource, type CoverageProvider } from './drawings.js';
import { createJwtAuth, ServerConfigError, type JwtAuthOptions } from './auth.js';
import { backgroundErrorLog } from './background-errors.js';
import { checkGraphSupport, storeGraphSource, type GraphStatus } from './graph.js';
import { LOOPBACK_HOSTS } from './host-check.js';

export interface ServerOptions {
  /** What sessions run (a flow document is served as `flowWorkflow(doc)`). */
  workflows: Workflow[];
  /** Actors the workflows' machines name: the flows' `extract` and action actors, an agent's tools. */
  actors?: Record<string, AnyActorLogic>;
  /** Serve the task agent (workflow `task-agent`) beside the workflows, where the store holds graphs (Apache AGE). */
  taskAgent?: TaskAgentServing;
  /** Serve the document agent (workflow `document-agent`, `POST /api/agent/act` and the projects' routes) on the store's database. */
  documentAgent?: DocumentAgentServing;
  port?: number;
  hostname?: string;
  /**
   * The store to serve (a memory store, one you opened): the server does not
   * close it. When absent, the server opens PostgreSQL at `databaseUrl`, or
   * PGlite in `dataDir`, and closes it on `close()`.
   */
  store?: Store;
  /**
   * Origins whose pages may call the API from the browser (CORS), e.g.
   * `['https://app.example.com']`; `'*'` for any. None by default: only pages
   * of the server's own origin.
   */
  corsOrigins?: readonly string[] | '*';
  /** PostgreSQL when set; PGlite in `dataDir` otherwise. */
  databaseUrl?: string | undefined;
  dataDir?: string;
  jwtSecret?: string | undefined;
  /** With `jwtSecret`: required issuer and audience, and the clock skew allowed. */
  jwt?: Omit<JwtAuthOptions, 'secret'>;
  /** Host names the server answers to: loopback names and `hostname` by default; `'*'` for any. */
  allowedHosts?: readonly string[] | '*';
  /** The most turns a session takes (see `RuntimeOptions.maxTurnsPerSession`). */
  maxTurnsPerSession?: number;
  /** The reply schema of the workflows, for the OpenAPI document (see `AppOptions.replySchema`). */
  replySchema?: z.ZodType;
  /** PostgreSQL timeouts (see `createPostgresStore`). */
  postgresTimeouts?: PostgresTimeouts;
  /** A built web app to serve at the root (the demo page, and the viewer at `/viewer`), next to the API. */
  staticDir?: string | undefined;
  /** Hand-written machines the viewer draws beside the workflows (path selection, the chat session). */
  drawnMachines?: readonly { machine: AnyStateMachine; title: string }[];
  /** The model-based coverage the viewer overlays (`GET /api/drawings/{id}/coverage`); none when absent. */
  coverage?: CoverageProvider;
  /**
   * How often to look in the store for input deadlines that passed (default
   * 1000 ms): those of gates opened by other processes or before a restart.
   */
  deadlineWatchMs?: number;
  /** How often a quiet events stream sends a comment (default 15 s). */
  heartbeatMs?: number;
  /** How many events streams may be open at once, per caller and in total (see `EventStreamLimits`). */
  eventStreams?: EventStreamLimits;
  /** Errors of background work (deadlines, the events stream); by default written to stderr, each kind at most once a minute. */
  onBackgroundError?: (error: unknown) => void;
  /**
   * Stream the server's own session actors (flows and agents: the machines
   * that really run) to a Stately inspector over WebSocket (`@statelyai/inspect`'s
   * `createWebSocketInspector`), at `url` (e.g. ws://127.0.0.1:8080, where
   * `@statelyai/inspect`'s server relays to the hosted inspector). Events wait
   * (a bounded number) while the socket is not open.
   */
  inspect?: { url: string };
  /**
   * Lay out ahead, once the server listens, the drawings of the served
   * workflows whose layouts the store does not hold yet (one at a time, in the
   * layout worker, never while a layout asked for runs or waits; every machine
   * level first), so that the viewer's first open
   * of each is fast. Off by default (`gateflow serve` turns it on; its
   * `--no-warm-layouts` off): off, it costs nothing.
   */
  warmLayouts?: boolean;
  /** Layouts made at build time (`npm run build:layouts`: the example flows'), served before any is laid out (see `bundledLayoutLookup`). */
  bundledLayouts?: BundledLayoutLookup;
}

/** How the task agent is served: its model (none: the offline reader alone), host tools, limits. */
export type TaskAgentServing = Omit<TaskAgentHostOptions, 'database'>;

/** How the document agent is served: its model (none: the offline reader alone), web search, how long a question waits, the model's time limit. */
export type DocumentAgentServing = Omit<DocumentAgentHostOptions, 'database'>;

export interface RunningServer {
  url: string;
  store: Store;
  /** Where the store keeps its data, for the start-up line. */
  storeDescription: string;
  /** Whether the store holds the task agent's graph (Apache AGE), found at start; when not, why (flows are served either way). */
  graph: GraphStatus;
  /** Whether the document agent is served (asked for, on a SQL store: PGlite and PostgreSQL both are). */
  documentAgent: boolean;
  /** Serves a workflow from now on: a new version of a flow, or the same version changed (see `Runtime.register`). */
  register(workflow: Workflow): void;
  close(): Promise<void>;
}

/**
 * Opens the store, builds the runtime and serves the API on loopback. Whatever
 * fails after the store is open (a bad setting, a port in use) closes it
 * again, so that its directory lock is not held by a server that never ran.
 */
export async function startServer(options: ServerOptions): Promise<RunningServer> {
  // Settings are checked before the store is opened (or its directory created and locked).
  if (options.jwtSecret) createJwtAuth({ ...options.jwt, secret: options.jwtSecret });
  if (options.inspect) inspectorUrl(options.inspect.url);
  if (options.store) {
    // The caller's store stays open when the server closes.
    return serveStore(options.store, options, { description: `the ${options.store.kind} store given`, owned: false });
  }
  const store = await openStore(options);
  try {
    return await serveStore(store, options, { owned: true });
  } catch (error) {
    await store.close().catch(() => undefined);
    throw error;
  }
}

/**
 * PostgreSQL at `databaseUrl`, or PGlite in `dataDir` (with Apache AGE when
 * `@electric-sql/pglite-age` is installed): each driver is an optional
 * dependency, loaded only here.
 */
async function openStore(options: ServerOptions): Promise<Store> {
  if (options.databaseUrl) {
    const { createPostgresStore } = await import('../store/postgres.js');
    return createPostgresStore({ connectionString: options.databaseUrl, ...(options.postgresTimeouts && { timeouts: options.postgresTimeouts }) });
  }
  const { createPgliteStore } = await import('../store/pglite.js');
  const extensions = await graphExtensions();
  return createPgliteStore({ dataDir: options.dataDir ?? DEFAULT_PGLITE_DIR, ...(extensions && { extensions }) });
}

/** The task agent's workflow and actors on the store's database (loaded only when served). */
async function taskAgentOf(database: SqlDatabase, options: TaskAgentServing) {
  const { taskAgentHost } = await import('../task-agent/host.js');
  return taskAgentHost({ database, ...options });
}

/** The document agent's workflow and actors on the store's database (loaded only when served). */
async function documentAgentOf(database: SqlDatabase, options: DocumentAgentServing) {
  const { documentAgentHost } = await import('../document-agent/host.js');
  return documentAgentHost({ database, ...options });
}

/**
 * PGlite's Apache AGE, loaded only for a PGlite store (a PostgreSQL server has
 * its own, or none); none when its package is not installed (the graph check
 * then says the store holds no graphs, and flows are served all the same).
 */
async function graphExtensions() {
  try {
    const { graphPgliteOptions } = await import('../graph/pglite.js');
    return graphPgliteOptions().extensions;
  } catch (error) {
    if (error instanceof MissingDependencyError) return undefined;
    throw error;
  }
}

async function serveStore(store: Store, options: ServerOptions, { description, owned }: { description?: string; owned: boolean }): Promise<RunningServer> {
  const storeDescription =
    description ?? (options.databaseUrl ? `PostgreSQL at ${redactUrl(options.databaseUrl)}` : `PGlite in ${options.dataDir ?? DEFAULT_PGLITE_DIR}`);
  // A store without AGE serves flows all the same: the graph says why it is off.
  const graph = await checkGraphSupport(store);
  const onBackgroundError = options.onBackgroundError ?? backgroundErrorLog((line) => console.error(line));
  // The task agent needs the graph: served where the store holds one, left out (and said why) where not.
  const agent = graph.available && options.taskAgent && store.sql ? await taskAgentOf(store.sql, { onError: (error) => onBackgroundError(error), ...options.taskAgent }) : null;
  // The document agent needs only SQL tables (no AGE): served on any SQL store when asked for.
  // What a step's failure said in its own words (a provider's, a driver's) goes to the log; the person gets plain words.
  const documentAgentLog = (error: unknown, step: string) =>
    onBackgroundError(error instanceof DocumentAgentModelError ? new Error(`document agent, ${step}: ${error.internal}`) : error);
  const documents = options.documentAgent && store.sql ? await documentAgentOf(store.sql, { onError: documentAgentLog, ...options.documentAgent }) : null;
  // A PGlite directory this server opened is locked to it: a message's claim found there is a killed process's, freed now, not at its lease's end.
  if (documents && owned && store.kind === 'pglite') await (await import('../documents/act-claims.js')).actClaims(store.sql!).clearAll();
  const inspector = options.inspect ? await webSocketInspector(options.inspect.url) : null;
  const runtime = createRuntime({
    ...(inspector && { inspect: inspector.inspect }),
    workflows: [...options.workflows, ...(agent ? [agent.workflow] : []), ...(documents ? [documents.workflow] : [])],
    store,
    ...((options.actors || agent || documents) && { actors: { ...options.actors, ...agent?.actors, ...documents?.actors } }),
    ...(options.maxTurnsPerSession !== undefined && { maxTurnsPerSession: options.maxTurnsPerSession }),
    // Deadlines live in the store: this server fires those of any process, and those that passed while none ran.
    deadlines: { watchMs: options.deadlineWatchMs ?? 1000 },
    onBackgroundError,
  });
  try {
    const running = await serveRuntime(store, runtime, { storeDescription, graph, documentAgent: documents !== null, owned }, onBackgroundError, options);
    if (!inspector) return running;
    return {
      ...running,
      close: async () => {
        await running.close();
        inspector.stop();
      },
    };
  } catch (error) {
    runtime.close();
    inspector?.stop();
    throw error;
  }
}

/** The inspector's address, checked: ws:// or wss://. */
function inspectorUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ServerConfigError(`the inspector URL must be a WebSocket URL such as ws://127.0.0.1:8080, not ${JSON.stringify(url)}`);
  }
  if (parsed.protocol !== 'ws:' && parsed.protocol !== 'wss:') throw new ServerConfigError(`the inspector URL must start with ws:// or wss://, not ${JSON.stringify(url)}`);
  return parsed.href;
}

/** The Stately inspector's WebSocket client (loaded only when asked for); a URL that is not ws:// or wss:// is refused at start. */
async function webSocketInspector(url: string): Promise<{ inspect: (event: InspectionEvent) => void; stop(): void }> {
  const { createWebSocketInspector } = await import('@statelyai/inspect');
  const inspector = createWebSocketInspector({ url: inspectorUrl(url) });
  return { inspect: (event) => inspector.inspect.next?.(event), stop: () => inspector.stop() };
}

async function serveRuntime(
  store: Store,
  runtime: Runtime,
  { storeDescription, graph, documentAgent, owned }: { storeDescription: string; graph: GraphStatus; documentAgent: boolean; owned: boolean },
  onBackgroundError: (error: unknown) => void,
  options: ServerOptions,
): Promise<RunningServer> {
  const hostname = options.hostname ?? '127.0.0.1';
  // Ends the events streams on close: the server would wait for them otherwise.
  const shutdown = new AbortController();
  // Drawings are laid out off the server's thread: ELK's seconds of CPU do not hold the API.
  const layouts = workerLayouter();
  const drawings = drawingSource({
    workflows: () => runtime.registered(),
    ...(options.drawnMachines && { machines: options.drawnMachines }),
    ...(options.coverage && { coverage: options.coverage }),
    layout: layouts.layout,
    lanes: layouts.workers,
    layoutCode: layouts.code,
    // Kept in the store: a restarted server serves them without laying them out again.
    ...(store.layouts && { store: store.layouts }),
    ...(options.bundledLayouts && { bundled: options.bundledLayouts }),
    // Once closing, the store may be closed under a layout being kept: nothing to report.
    onStoreError: (error) => shutdown.signal.aborted || onBackgroundError(error),
  });
  const app = createApp({
    runtime,
    jwtSecret: options.jwtSecret,
    shutdown: shutdown.signal,
    graph: storeGraphSource(store, graph),
    drawings,
    ...(documentAgent && store.sql && { documentAgent: { database: store.sql, ping: () => store.ping(), ...(options.documentAgent?.limits && { limits: options.documentAgent.limits }), ...(options.documentAgent?.actLimits && { actLimits: options.documentAgent.actLimits }) } }),
    ...(options.heartbeatMs !== undefined && { heartbeatMs: options.heartbeatMs }),
    ...(options.eventStreams && { eventStreams: options.eventStreams }),
    ...(options.jwt && { jwt: options.jwt }),
    ...(options.replySchema && { replySchema: options.replySchema }),
    ...(options.corsOrigins && { corsOrigins: options.corsOrigins }),
    allowedHosts: options.allowedHosts ?? [...LOOPBACK_HOSTS, ...(isWildcard(hostname) ? [] : [hostName(hostname)])],
    onError: (error) => console.error('gateflow: internal error:', error),
  });
  if (options.staticDir) {
    const root = relative(process.cwd(), options.staticDir) || '.';
    const files = serveStatic({ root, onFound: staticCacheHeaders });
    // A page reload on a client-side path gets the app again; /viewer is the viewer's page.
    const page = serveStatic({ root, path: 'index.html', onFound: revalidated });
    const viewer = serveStatic({ root, path: 'viewer.html', onFound: revalidated });
    const notApi = (handler: typeof files): typeof files => (c, next) => (c.req.path.startsWith('/api/') ? next() : handler(c, next));
    // A built file that is missing (an old page asking for a replaced chunk) is a 404, never the page in its place.
    const notAsset = (handler: typeof files): typeof files => (c, next) => (c.req.path.startsWith(ASSETS) ? next() : handler(c, next));
    app.get('/viewer', viewer);
    app.get('/*', notApi(files), notApi(notAsset(page)));
  }
  const server: ServerType = await new Promise((resolve, reject) => {
    const s = serve({ fetch: app.fetch, port: options.port ?? 3000, hostname }, () => resolve(s));
    s.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;
  // Started once the server listens; a request's layout goes before any of these.
  let warming: Promise<void> = Promise.resolve();
  const warm = () => {
    if (!options.warmLayouts || shutdown.signal.aborted) return;
    // The worker loads ELK now, not when the first layout is asked for.
    layouts.open();
    warming = warming.then(() => drawings.warm(shutdown.signal)).catch(onBackgroundError);
  };
  warm();
  // Gates whose deadline passed while no server ran take their timeout now, not at the first watch.
  const firstSweep = runtime.fireDeadlines().then(
    () => undefined,
    (error: unknown) => onBackgroundError(error),
  );
  return {
    url: `http://${hostname}:${port}`,
    store,
    storeDescription,
    graph,
    documentAgent,
    register: (workflow) => {
      runtime.register(workflow);
      // A changed flow is laid out ahead too (the open viewer asks for it within seconds).
      warm();
    },
    close: async () => {
      shutdown.abort();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await firstSweep;
      runtime.close();
      await layouts.close();
      // Warming stops at its next step (the worker's layouts fail once it is closed): no store read after the store closes.
      await warming;
      if (owned) await store.close();
    },
  };
}

/**
 * A Vite build's `assets/` files are named by their content's hash: a browser
 * keeps them for good and never asks again (a new build has new names). The
 * pages that name them are asked for again each time, so a new build is seen
 * at once.
 */
const ASSETS = '/assets/';
type HeaderContext = { req: { path: string }; header: (name: string, value: string) => void };
function staticCacheHeaders(_file: string, c: HeaderContext): void {
  c.header('Cache-Control', c.req.path.startsWith(ASSETS) ? 'public, max-age=31536000, immutable' : 'no-cache');
}
const revalidated = (_file: string, c: HeaderContext) => c.header('Cache-Control', 'no-cache');

const isWildcard = (hostname: string) => hostname === '0.0.0.0' || hostname === '::';
/** How a bound address appears in a Host header: IPv6 in brackets. */
const hostName = (hostname: string) => (hostname.includes(':') ? `[${hostname}]` : hostname).toLowerCase();

