/**
 * Markdown for a terminal: the small subset flow messages are written in
 * (headings, bold and italic, bullet and numbered lists, rules, inline code,
 * backslash escapes), line by line, so a message's own line breaks are kept
 * (the summary puts an answer on the line under its question). A full
 * CommonMark renderer would join those lines into one paragraph, and the
 * terminal ones bring a syntax highlighter and a table library with them.
 *
 * What a person typed is never rendered: a message that quotes their words
 * (the summary's `(from: "**hi**")`) has them escaped (flow/messages.ts), and
 * escapes (`\*`) are honoured, so they show as typed.
 */

/** How to show styles: ANSI escapes (a terminal) or plain text (a file, a pipe). */
export interface TerminalStyle {
  ansi: boolean;
}

const RULE_WIDTH = 40;
const BOLD = ['\x1b[1m', '\x1b[22m'] as const;
const ITALIC = ['\x1b[3m', '\x1b[23m'] as const;
const HEADING = ['\x1b[1;4m', '\x1b[22;24m'] as const;

const styled = (text: string, [on, off]: readonly [string, string], style: TerminalStyle) => (style.ansi ? `${on}${text}${off}` : text);

/** Characters a backslash escapes in CommonMark: ASCII punctuation. */
const ESCAPE = /\\([!-/:-@[-`{-~])/g;
/** An escaped character, held out of the emphasis rules until the end: U+E000, its index, U+E001. */
const HELD = /\uE000(\d+)\uE001/g;

/**
 * Emphasis as CommonMark reads the common cases: the text right inside a
 * delimiter is not a space, and `_` does not open or close inside a word
 * (`1_patient_info` stays as it is).
 */
const INLINE =
  /`([^`\n]+)`|\*\*(?=\S)(.*?\S)\*\*|(?<![\p{L}\p{N}_])__(?=\S)(.*?\S)__(?![\p{L}\p{N}_])|\*(?=[^\s*])(.*?[^\s*])\*|(?<![\p{L}\p{N}_])_(?=[^\s_])(.*?[^\s_])_(?![\p{L}\p{N}_])/gu;

function inline(text: string, style: TerminalStyle): string {
  return text.replace(INLINE, (_match, code?: string, bold1?: string, bold2?: string, italic1?: string, italic2?: string) => {
    if (code !== undefined) return code;
    const bold = bold1 ?? bold2;
    if (bold !== undefined) return styled(inline(bold, style), BOLD, style);
    return styled(inline((italic1 ?? italic2)!, style), ITALIC, style);
  });
}

/** One line's inline Markdown: escapes first (held apart), then emphasis and code, then the escaped characters back. */
function renderInline(text: string, style: TerminalStyle): string {
  const held: string[] = [];
  const guarded = text.replace(ESCAPE, (_match, char: string) => `\uE000${held.push(char) - 1}\uE001`);
  return inline(guarded, style).replace(HELD, (_match, index: string) => held[Number(index)]!);
}

/** Renders a message's Markdown for a terminal. */
export function renderMarkdown(markdown: string, style: TerminalStyle): string {
  return markdown
    .split(/\r?\n/)
    .map((line) => {
      const heading = /^ {0,3}#{1,6}(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/.exec(line);
      if (heading) {
        const title = renderInline(heading[1] ?? '', style);
        return style.ansi ? styled(title, HEADING, style) : `${title}\n${'─'.repeat(Math.max(3, [...title].length))}`;
      }
      if (/^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/.test(line)) return '─'.repeat(RULE_WIDTH);
      const bullet = /^(\s*)[-*+][ \t]+(.*)$/.exec(line);
      if (bullet) return `${bullet[1]}• ${renderInline(bullet[2]!, style)}`;
      // Numbered items keep their numbers (they are already plain text); their content is inline Markdown.
      const numbered = /^(\s*\d{1,9}[.)][ \t]+)(.*)$/.exec(line);
      if (numbered) return `${numbered[1]}${renderInline(numbered[2]!, style)}`;
      return renderInline(line, style);
    })
    .join('\n');
}

/**
 * Whether to style the output: when it is a terminal, unless `NO_COLOR` is
 * set (no-color.org); `FORCE_COLOR` (other than 0) styles a pipe or file too.
 */
export function wantsColor(output: { isTTY?: boolean }, env: Record<string, string | undefined>): boolean {
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '' && env.FORCE_COLOR !== '0') return true;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  return output.isTTY === true;
}
