/**
 * What `gateflow serve` takes from the environment (src/cli/serve.ts): the
 * origins whose pages may call the API (issue 28 §2: a widget on a Vite dev
 * server or another site, served by the CLI as by `startServer`).
 */
import { describe, expect, it } from 'vitest';
import { serveOptionsFromEnv } from '../../src/cli/serve.js';
import { CliError } from '../../src/cli/io.js';

describe('GATEFLOW_CORS_ORIGINS', () => {
  it('lists the origins, comma-separated, as browsers send them', () => {
    const options = serveOptionsFromEnv({ GATEFLOW_CORS_ORIGINS: 'http://localhost:5173, https://app.example.com/' });
    expect(options.corsOrigins).toEqual(['http://localhost:5173', 'https://app.example.com']);
  });

  it('takes * for any origin, and none when unset', () => {
    expect(serveOptionsFromEnv({ GATEFLOW_CORS_ORIGINS: '*' }).corsOrigins).toBe('*');
    expect(serveOptionsFromEnv({}).corsOrigins).toBeUndefined();
  });

  it.each([
    ['localhost:5173', 'scheme://host[:port], e.g. http://localhost:5173'],
    ['http://localhost:5173/app', 'http://localhost:5173'],
    ['not an origin', 'scheme://host[:port], e.g. http://localhost:5173'],
  ])('refuses "%s" with one line naming the variable and the fix', (value, fix) => {
    const refusal = (() => {
      try {
        serveOptionsFromEnv({ GATEFLOW_CORS_ORIGINS: value });
      } catch (error) {
        return error;
      }
      return undefined;
    })();
    expect(refusal).toBeInstanceOf(CliError);
    expect((refusal as CliError).message).toBe(`gateflow: GATEFLOW_CORS_ORIGINS: "${value}" is not an origin: write it as ${fix}`);
    expect((refusal as CliError).exitCode).toBe(2);
  });

  it('bounds the list', () => {
    const many = Array.from({ length: 101 }, (_, i) => `http://host${i}.example`).join(',');
    expect(() => serveOptionsFromEnv({ GATEFLOW_CORS_ORIGINS: many })).toThrow(/names 101 origins; at most 100/);
  });
});
