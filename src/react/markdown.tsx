import { Fragment, type ReactNode } from 'react';

/**
 * The little Markdown replies use (headings, bold, rules, line breaks), as
 * React elements. Text is never parsed as HTML.
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

function inline(text: string): ReactNode[] {
  return text.split(/(\*\*[^*]+\*\*)/g).map((part, i) =>
    part.startsWith('**') && part.endsWith('**') && part.length > 4 ? <strong key={i}>{part.slice(2, -2)}</strong> : part,
  );
}
