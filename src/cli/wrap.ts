/** The width the CLI's help is written for: a terminal's default. */
export const HELP_WIDTH = 80;

/**
 * Text wrapped at `width` columns, on spaces: each line of `text` starts with
 * `first`, and the lines it wraps onto with `rest`. An option in brackets
 * (`[--port N]`) is one word; a word longer than a line (a URL) is left whole.
 */
export function wrap(text: string, first = '', rest = first, width = HELP_WIDTH): string {
  return text
    .split('\n')
    .map((paragraph) => {
      const words = paragraph.match(/\[[^\]]*\]|\S+/g) ?? [];
      const lines: string[] = [];
      let line = first;
      let empty = true;
      for (const word of words) {
        if (!empty && line.length + 1 + word.length > width) {
          lines.push(line);
          line = rest;
          empty = true;
        }
        line += empty ? word : ` ${word}`;
        empty = false;
      }
      lines.push(empty ? line.trimEnd() : line);
      return lines.join('\n');
    })
    .join('\n');
}
