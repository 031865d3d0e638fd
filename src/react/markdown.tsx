import { Fragment, type ReactNode } from 'react';

/** ASCII punctuation: what a backslash escapes in Markdown (`\*` is a literal star). */
const ESCAPABLE = /[!-/:-@[-`{-~]/;
const ESCAPED = /\\([!-/:-@[-`{-~])/g;

/**
 * The little Markdown replies use (headings, bold, italics, rules, line
 * breaks, and backslash escapes), as React elements. Text is never parsed as HTML. A reply
 * that repeats what the person wrote has it escaped (flow/messages.ts), so it
 * shows as typed.
 */
export function Markdown({ text }: { text: string }) {
  const blocks = text.split(/\n{2,}/);
  return (
    <>
      {blocks.map((block, i) => {
        if (/^---+$/.test(block.trim())) return <hr key={i} />;
        const heading = /^#{1,6}\s+(.*)$/.exec(block.trim());
        if (heading) return <h3 key={i}>{inline(heading[1]!)}</h3>;
        const lines = block.split('\n');
        return (
          <p key={i}>
            {lines.map((line, j) => (
              <Fragment key={j}>
                {j > 0 && <br />}
                {inline(line)}
              </Fragment>
            ))}
          </p>
        );
      })}
    </>
  );
}

/** Bold runs between unescaped `**` pairs; escapes resolved to the characters they stand for. */
function inline(text: string): ReactNode[] {
  const marks: number[] = [];
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '\\' && ESCAPABLE.test(text[i + 1] ?? '')) i++;
    else if (text.startsWith('**', i)) marks.push(i++);
  }
  const nodes: ReactNode[] = [];
  let at = 0;
  for (let m = 0; m + 1 < marks.length; m += 2) {
    const open = marks[m]!;
    const close = marks[m + 1]!;
    if (close === open + 2) continue;
    nodes.push(...italics(text.slice(at, open), at), <strong key={open}>{italics(text.slice(open + 2, close), open + 2)}</strong>);
    at = close + 2;
  }
  nodes.push(...italics(text.slice(at), at));
  return nodes.filter((node) => node !== '');
}

/**
 * Italic runs, `_x_` and `*x*`, read as the CLI reads them
 * (src/cli/markdown.ts): no space just inside the delimiters, `_` never
 * inside a word (`1_patient_info` stays as it is), an escaped delimiter
 * never one. The agents' notes are italic ("_I performed a web search…_").
 */
const ITALIC = /(?<![\p{L}\p{N}_\\])_(?=[^\s_])(.*?[^\s_\\])_(?![\p{L}\p{N}_])|(?<![\\*])\*(?=[^\s*])(.*?[^\s*\\])\*(?!\*)/gu;

/** A run of text with its italics as elements; `offset` keys them apart within the line. */
function italics(text: string, offset: number): ReactNode[] {
  const nodes: ReactNode[] = [];
  let at = 0;
  for (const match of text.matchAll(ITALIC)) {
    nodes.push(unescape(text.slice(at, match.index)), <em key={`em${offset + match.index}`}>{unescape((match[1] ?? match[2])!)}</em>);
    at = match.index + match[0].length;
  }
  nodes.push(unescape(text.slice(at)));
  return nodes;
}

const unescape = (text: string) => text.replace(ESCAPED, '$1');
