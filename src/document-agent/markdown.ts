/**
 * The Markdown edits the document agent makes without a model (the offline
 * reader's `append` and `remove_section`): pure functions on the text, so a
 * document changed offline is changed the same way every time.
 *
 * Only what a section needs is parsed: ATX headings (`#` to `######`) and
 * fenced code blocks (``` or ~~~), since a `#` line inside a fence is code,
 * not a heading. Setext headings (underlined with `===`) are not sections here.
 */

export interface Section {
  /** The heading's text, without the `#`s around it. */
  heading: string;
  /** 1 for `#` … 6 for `######`. */
  level: number;
  /** Offset of the heading line's first character. */
  start: number;
  /** Offset where the section stops: the next heading of the same or a higher level, or the end of the text. */
  end: number;
}

interface Line {
  text: string;
  start: number;
}

/** The lines of `content` with their offsets; `text` has no line ending. */
function linesOf(content: string): Line[] {
  const lines: Line[] = [];
  let start = 0;
  while (start < content.length) {
    const nl = content.indexOf('\n', start);
    const stop = nl === -1 ? content.length : nl;
    lines.push({ text: content.slice(start, stop).replace(/\r$/, ''), start });
    start = stop + 1;
  }
  return lines;
}

const FENCE = /^ {0,3}(`{3,}|~{3,})(.*)$/;
const ATX = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?[ \t]*$/;

/** Whether the fence opened by `open` is closed by `line` (same character, at least as long, nothing after it). */
function closes(open: string, line: string): boolean {
  const match = /^ {0,3}(`{3,}|~{3,})[ \t]*$/.exec(line);
  return !!match && match[1]![0] === open[0] && match[1]!.length >= open.length;
}

/**
 * Walks the lines, calling `onLine` with each line outside a fenced block;
 * returns the fence still open at the end (CommonMark runs it to the end of
 * the document), or null.
 */
function scan(content: string, onLine: (line: Line) => void): string | null {
  let fence: string | null = null;
  for (const line of linesOf(content)) {
    if (fence) {
      if (closes(fence, line.text)) fence = null;
      continue;
    }
    const open = FENCE.exec(line.text);
    // A backtick fence's info string may not hold a backtick (CommonMark 4.5).
    if (open && !(open[1]![0] === '`' && open[2]!.includes('`'))) {
      fence = open[1]!;
      continue;
    }
    onLine(line);
  }
  return fence;
}

/** The ATX headings outside fenced code, each with the extent of its section. */
export function sectionsOf(content: string): Section[] {
  const sections: Section[] = [];
  // Sections still open, outermost first: a heading closes every open one of its level or deeper.
  const open: Section[] = [];
  scan(content, (line) => {
    const match = ATX.exec(line.text);
    if (!match) return;
    const level = match[1]!.length;
    // A closing sequence of `#`s is dropped only when a space precedes it ("C#" keeps its '#').
    const heading = (match[2] ?? '').replace(/(?:^|[ \t]+)#+$/, '').trim();
    while (open.length && open[open.length - 1]!.level >= level) open.pop()!.end = line.start;
    const section = { heading, level, start: line.start, end: content.length };
    sections.push(section);
    open.push(section);
  });
  return sections;
}

/**
 * A heading as a person names it: case, surrounding whitespace and Markdown
 * markers ignored, and a trailing word "section" dropped, so "Budget",
 * "## Budget ##", "**Budget**" and "Budget section" are one name.
 */
export function headingKey(heading: string): string {
  let key = heading
    .normalize('NFC')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^#+\s*/, '')
    .replace(/\s*#+$/, '')
    .replace(/^[*_`]+|[*_`]+$/g, '')
    .trim();
  // "Section" alone stays a name: only a word before it makes "section" a suffix.
  key = key.replace(/^(.*\S)\s+section$/, '$1');
  return key;
}

const BLANK_LINES_AT_START = /^(?:[ \t]*\r?\n)+/;

/**
 * Removes the first section whose heading names `heading` (see `headingKey`),
 * subsections included, and closes the gap with one blank line, so the text
 * around it keeps its spacing. Nothing matches: the content is returned as is.
 */
export function removeSection(
  content: string,
  heading: string,
): { content: string; removed: { heading: string; level: number } | null } {
  const key = headingKey(heading);
  const section = key ? sectionsOf(content).find((s) => headingKey(s.heading) === key) : undefined;
  if (!section) return { content, removed: null };

  const before = content.slice(0, section.start).replace(/\s+$/, '');
  const after = content.slice(section.end).replace(BLANK_LINES_AT_START, '');
  const newline = content.includes('\r\n') ? '\r\n' : '\n';
  let result: string;
  if (!before) result = after;
  else if (!after.trim()) result = /\n$/.test(content) ? before + newline : before;
  else result = before + newline + newline + after;
  return { content: result, removed: { heading: section.heading, level: section.level } };
}

/**
 * `content` with `text` added at the end, after one blank line (none when the
 * content is empty), ending with a single newline. A fence left open at the
 * end of the content is closed first: otherwise the text would become code.
 * Empty text adds nothing and returns the content as is.
 */
export function appendText(content: string, text: string): string {
  const addition = text.replace(BLANK_LINES_AT_START, '').replace(/\s+$/, '');
  if (!addition) return content;
  const open = scan(content, () => {});
  let body = content.replace(/\s+$/, '');
  if (open) body += `\n${open}`;
  return body ? `${body}\n\n${addition}\n` : `${addition}\n`;
}
