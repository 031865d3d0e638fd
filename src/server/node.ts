import { serve, type ServerType } from '@hono/node-server';
import { serveStatic } from '@hono/node-server/serve-static';
import { relative } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { AnyActorLogic } from 'xstate';
import type { FlowDocument } from '../flow/schema.js';
import { createRuntime } from '../runtime/runtime.js';
import { DEFAULT_PGLITE_DIR, createPgliteStore } from '../store/pglite.js';
import { createPostgresStore, redactUrl } from '../store/postgres.js';
import type { Store } from '../store/types.js';
import { createApp } from './app.js';

export interface ServerOptions {
  flows: FlowDocument[];
  extract: AnyActorLogic;
  /** Actors the flows' action nodes name. */
  actors?: Record<string, AnyActorLogic>;
  port?: number;
  hostname?: string;
  /** PostgreSQL when set; PGlite in `dataDir` otherwise. */
  databaseUrl?: string | undefined;
  dataDir?: string;
  jwtSecret?: string | undefined;
  /** A built web app to serve at the root (the demo page), next to the API. */
  staticDir?: string | undefined;
}

export interface RunningServer {
  url: string;
  store: Store;
  /** Where the store keeps its data, for the start-up line. */
  storeDescription: string;
  close(): Promise<void>;
}

/** Opens the store, builds the runtime and serves the API on loopback. */
export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const store = options.databaseUrl
    ? await createPostgresStore({ connectionString: options.databaseUrl })
    : await createPgliteStore({ dataDir: options.dataDir ?? DEFAULT_PGLITE_DIR });
  const storeDescription = options.databaseUrl
    ? `PostgreSQL at ${redactUrl(options.databaseUrl)}`
    : `PGlite in ${options.dataDir ?? DEFAULT_PGLITE_DIR}`;
  const runtime = createRuntime({ flows: options.flows, store, extract: options.extract, ...(options.actors && { actors: options.actors }) });
  const app = createApp({
    runtime,
    jwtSecret: options.jwtSecret,
    onError: (error) => console.error('gateflow: internal error:', error),
  });
  if (options.staticDir) {
    const root = relative(process.cwd(), options.staticDir) || '.';
    const files = serveStatic({ root });
    // A page reload on a client-side path gets the app again.
    const page = serveStatic({ root, path: 'index.html' });
    const notApi = (handler: typeof files): typeof files => (c, next) => (c.req.path.startsWith('/api/') ? next() : handler(c, next));
    app.get('/*', notApi(files), notApi(page));
  }
  const hostname = options.hostname ?? '127.0.0.1';
  const server: ServerType = await new Promise((resolve, reject) => {
    const s = serve({ fetch: app.fetch, port: options.port ?? 3000, hostname }, () => resolve(s));
    s.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${hostname}:${port}`,
    store,
    storeDescription,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await store.close();
    },
  };
}

