import { existsSync } from 'node:fs';
import type { ServerOptions } from '../server/node.js';
import { CliError, DEMO_DIR } from './io.js';

type Env = Record<string, string | undefined>;

/**
 * What `gateflow serve` takes from the environment, checked: a wrong value is
 * a one-line error naming the variable, not a server that starts half right.
 */
export function serveOptionsFromEnv(env: Env): Omit<ServerOptions, 'workflows' | 'actors' | 'port' | 'postgresTimeouts'> {
  const text = (name: string) => env[name]?.trim() || undefined;
  const jwtSecret = text('GATEFLOW_JWT_SECRET');
  const hosts = text('GATEFLOW_ALLOWED_HOSTS');
  const cors = text('GATEFLOW_CORS_ORIGINS');
  const maxTurns = wholeNumber(env, 'GATEFLOW_MAX_TURNS', 1);
  const skew = wholeNumber(env, 'GATEFLOW_JWT_CLOCK_SKEW', 0);
  const issuer = text('GATEFLOW_JWT_ISSUER');
  const audience = text('GATEFLOW_JWT_AUDIENCE');
  const streamsPerCaller = wholeNumber(env, 'GATEFLOW_MAX_EVENT_STREAMS_PER_CALLER', 1);
  const streams = wholeNumber(env, 'GATEFLOW_MAX_EVENT_STREAMS', 1);
  return {
    databaseUrl: text('DATABASE_URL'),
    dataDir: text('GATEFLOW_DB_DIR'),
    jwtSecret,
    jwt: { issuer, audience, clockSkewSeconds: skew },
    ...(hosts !== undefined && { allowedHosts: hosts === '*' ? '*' : hosts.split(',').map((h) => h.trim()).filter(Boolean) }),
    ...(cors !== undefined && { corsOrigins: cors === '*' ? '*' : corsOrigins(cors) }),
    ...(maxTurns !== undefined && { maxTurnsPerSession: maxTurns }),
    ...((streamsPerCaller !== undefined || streams !== undefined) && {
      eventStreams: { ...(streamsPerCaller !== undefined && { perCaller: streamsPerCaller }), ...(streams !== undefined && { total: streams }) },
    }),
    staticDir: existsSync(DEMO_DIR) ? DEMO_DIR : undefined,
  };
}

/** Pages on other origins that may call the API (a Vite dev server, an app's own site): checked here, so a mistake is one line at start. */
function corsOrigins(list: string): string[] {
  const origins = list.split(',').map((o) => o.trim()).filter(Boolean);
  if (origins.length > MAX_CORS_ORIGINS) throw new CliError(`gateflow: GATEFLOW_CORS_ORIGINS names ${origins.length} origins; at most ${MAX_CORS_ORIGINS}`, 2);
  return origins.map((origin) => {
    let parsed: string;
    try {
      parsed = new URL(origin).origin;
    } catch {
      parsed = 'null';
    }
    // An origin as a browser sends it: scheme://host[:port], no path (a bare "localhost:5173" parses as a scheme).
    if (parsed === 'null' || parsed !== origin.replace(/\/$/, '')) {
      const hint = parsed === 'null' ? 'scheme://host[:port], e.g. http://localhost:5173' : parsed;
      throw new CliError(`gateflow: GATEFLOW_CORS_ORIGINS: "${origin.slice(0, 100)}" is not an origin: write it as ${hint}`, 2);
    }
    return parsed;
  });
}

const MAX_CORS_ORIGINS = 100;

function wholeNumber(env: Env, name: string, min: number): number | undefined {
  const value = env[name]?.trim();
  if (!value) return undefined;
  if (!/^\d{1,9}$/.test(value) || Number(value) < min) throw new CliError(`gateflow: ${name} must be a whole number of ${min} or more, not "${value.slice(0, 20)}"`, 2);
  return Number(value);
}

const AGENTS = ['task-agent', 'document-agent'] as const;

/** `--agents`: which agents `serve` serves (both by default; `none` for flows alone). */
export function servedAgents(list: string | undefined): Set<(typeof AGENTS)[number]> {
  if (list === undefined) return new Set(AGENTS);
  const names = list.split(',').map((n) => n.trim()).filter(Boolean);
  if (names.length === 1 && names[0] === 'none') return new Set();
  const unknown = names.filter((n) => !(AGENTS as readonly string[]).includes(n));
  if (unknown.length > 0 || names.length === 0) throw new CliError(`gateflow serve: --agents takes ${AGENTS.join(',')}, one of them, or none; not "${list.slice(0, 60)}"`, 2);
  return new Set(names as (typeof AGENTS)[number][]);
}
