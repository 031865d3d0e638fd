/**
 * What the widget's first load holds, by source module (issue 28: the
 * widget's weight). Builds the app of test/fixtures/widget-host with Vite as
 * a consumer's production build would, with source maps, and reads the maps
 * as source-map-explorer does: every byte of the minified output belongs to
 * the source its mapping names. Each source's bytes are gzipped on their own
 * and the chunk's real gzip size shared out in proportion, so the rows add up
 * to the first load's gzip size. Sizes, not time.
 *
 *   npx tsx test/bench/widget-modules.ts [--react <dir with react and react-dom>] [--all]
 *
 * `--react` builds against another React (e.g. 18, installed in a temporary
 * directory); `--all` lists every module rather than grouping packages.
 */
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import type { Rolldown } from 'vite';
import { buildWidgetHost, WIDGET_HOST } from '../helpers/widget-host-build.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const FIXTURE = WIDGET_HOST;

const args = process.argv.slice(2);
const reactDir = args.includes('--react') ? args[args.indexOf('--react') + 1] : undefined;
const everyModule = args.includes('--all');

/** Aliases to another React install: each package's directory, resolved from `dir`. */
function reactAliases(dir: string): Record<string, string> {
  const require = createRequire(join(dir, 'package.json'));
  const at = (name: string) => dirname(require.resolve(`${name}/package.json`));
  return { react: at('react'), 'react-dom': at('react-dom') };
}

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** The source-map "mappings" string as lines of [generated column, source index] (other fields skipped). */
function decodeMappings(mappings: string): [number, number][][] {
  const lines: [number, number][][] = [];
  let source = 0;
  for (const line of mappings.split(';')) {
    const segments: [number, number][] = [];
    let column = 0;
    for (const segment of line.split(',')) {
      if (!segment) continue;
      const fields: number[] = [];
      let value = 0;
      let shift = 0;
      for (const ch of segment) {
        const digit = BASE64.indexOf(ch);
        value += (digit & 31) << shift;
        if (digit & 32) shift += 5;
        else {
          fields.push(value & 1 ? -(value >>> 1) : value >>> 1);
          value = 0;
          shift = 0;
        }
      }
      column += fields[0]!;
      if (fields.length >= 4) {
        source += fields[1]!;
        segments.push([column, source]);
      } else segments.push([column, -1]);
    }
    lines.push(segments);
  }
  return lines;
}

/** A source path as a row's name: a package (`react-dom`, `xstate`), or a file of this repository. */
function rowName(source: string): string {
  // Sources are named from the output file (dist/assets/ under the app's root).
  const path = source.startsWith('/') ? source : join(FIXTURE, 'dist/assets', source);
  const pkg = /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)\/(.*)$/.exec(path);
  if (pkg) return everyModule ? `${pkg[1]}/${pkg[2]}` : pkg[1]!;
  return relative(ROOT, path);
}

/** Each source's share of a chunk: its bytes, gzipped alone, scaled so the shares add up to the chunk's gzip size. */
function attribute(chunk: Rolldown.OutputChunk, sizes: Map<string, number>): void {
  const map = chunk.map;
  if (!map) {
    // The bundler's own runtime chunk has no map.
    sizes.set('(unmapped)', (sizes.get('(unmapped)') ?? 0) + gzipSync(chunk.code).length);
    return;
  }
  const lines = chunk.code.split('\n');
  const decoded = decodeMappings(map.mappings);
  const text = new Map<string, string[]>();
  const add = (name: string, s: string) => {
    if (!s) return;
    const parts = text.get(name) ?? [];
    parts.push(s);
    text.set(name, parts);
  };
  lines.forEach((line, i) => {
    const segments = decoded[i] ?? [];
    if (segments.length === 0 || segments[0]![0] > 0) add('(unmapped)', line.slice(0, segments[0]?.[0] ?? line.length));
    segments.forEach(([column, source], k) => {
      const end = segments[k + 1]?.[0] ?? line.length;
      // Unmapped: Vite's preload helper and the bundler's glue.
      add(source < 0 ? '(unmapped)' : rowName(map.sources[source] ?? '?'), line.slice(column, end));
    });
  });
  const alone = new Map([...text].map(([name, parts]) => [name, gzipSync(parts.join('\n')).length]));
  const sum = [...alone.values()].reduce((a, b) => a + b, 0);
  const total = gzipSync(chunk.code).length;
  for (const [name, n] of alone) sizes.set(name, (sizes.get(name) ?? 0) + (n / sum) * total);
}

const { chunks, firstLoad } = await buildWidgetHost({ sourcemap: true, ...(reactDir ? { alias: reactAliases(reactDir) } : {}) });
const lazy = chunks.filter((c) => !firstLoad.includes(c));

const sizes = new Map<string, number>();
for (const chunk of firstLoad) attribute(chunk, sizes);
const kb = (n: number) => (n / 1000).toFixed(1).padStart(6);
const gzip = (c: Rolldown.OutputChunk) => gzipSync(c.code).length;
console.log(`React ${reactDir ? `from ${reactDir}` : 'of this repository'}`);
console.log(`first load: ${kb(firstLoad.reduce((n, c) => n + gzip(c), 0))} KB gzip in ${firstLoad.length} chunk(s)`);
for (const [name, n] of [...sizes].sort((a, b) => b[1] - a[1])) if (n >= 50) console.log(`  ${kb(n)} KB  ${name}`);
console.log('lazy chunks:');
for (const c of lazy) console.log(`  ${kb(gzip(c))} KB  ${c.fileName} (${c.moduleIds.map((m) => rowName(m)).filter((m, i, all) => all.indexOf(m) === i).slice(0, 6).join(', ')})`);
