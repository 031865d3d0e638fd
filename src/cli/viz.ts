import { layoutDrawing } from '../viz/layout.js';
import { drawingSvg } from '../viz/svg.js';
import { toDot } from '../viz/dot.js';
import { toMermaid } from '../viz/mermaid.js';
import { readDrawing } from './drawings.js';
import { CliError } from './io.js';

const FORMATS = ['mermaid', 'dot', 'json', 'svg'] as const;
const LEVELS = ['outline', 'machine'] as const;

/**
 * `gateflow viz`: the drawing of a flow, an agent or a machine. `json` is the
 * drawing itself (what the viewer reads: the outline and the machine); `svg`
 * lays it out as the viewer does, at `--level` outline (as written) or
 * machine; Mermaid and DOT draw the compiled machine.
 */
export async function runViz(arg: string, format: string, level: string, out: { write(text: string): unknown }): Promise<number> {
  if (!isOneOf(FORMATS, format)) throw new CliError(`gateflow viz: --format must be ${FORMATS.join(', ')}, not "${format}"`, 2);
  if (!isOneOf(LEVELS, level)) throw new CliError(`gateflow viz: --level must be outline or machine, not "${level}"`, 2);
  const drawing = await readDrawing(arg);
  const text =
    format === 'json'
      ? JSON.stringify(drawing, null, 2)
      : format === 'svg'
        ? drawingSvg(await layoutDrawing(drawing, level))
        : format === 'dot'
          ? toDot(drawing.machine)
          : toMermaid(drawing.machine);
  out.write(`${text}\n`);
  return 0;
}

const isOneOf = <T extends string>(list: readonly T[], value: string): value is T => (list as readonly string[]).includes(value);
