import { describe, expect, it } from 'vitest';
import { appendText, headingKey, removeSection, sectionsOf } from '../../src/document-agent/markdown.js';

/** The Markdown edits the document agent makes offline: sections, removing one, appending. */

const DOC = [
  '# Trip',
  '',
  'Intro text.',
  '',
  '## Flights',
  '',
  'Outbound on Monday.',
  '',
  '### Return',
  '',
  'Back on Friday.',
  '',
  '## Hotels',
  '',
  'Two nights.',
  '',
].join('\n');

const heading = (content: string, s: { start: number; end: number }) => content.slice(s.start, s.end);

describe('sectionsOf', () => {
  it('gives every ATX heading with its level and the extent of its section', () => {
    const sections = sectionsOf(DOC);
    expect(sections.map((s) => [s.heading, s.level])).toEqual([
      ['Trip', 1],
      ['Flights', 2],
      ['Return', 3],
      ['Hotels', 2],
    ]);
    const [trip, flights, ret, hotels] = sections;
    expect(trip!.start).toBe(0);
    expect(trip!.end).toBe(DOC.length);
    // A level-2 section runs over its level-3 subsection, up to the next level-2 heading.
    expect(heading(DOC, flights!)).toBe('## Flights\n\nOutbound on Monday.\n\n### Return\n\nBack on Friday.\n\n');
    expect(heading(DOC, ret!)).toBe('### Return\n\nBack on Friday.\n\n');
    expect(heading(DOC, hotels!)).toBe('## Hotels\n\nTwo nights.\n');
  });

  it('ignores # lines inside ``` and ~~~ fences, and closes a fence only with a matching one', () => {
    const content = [
      '## Code',
      '```sh',
      '# a shell comment',
      '~~~',
      '## still code',
      '```',
      '~~~~',
      '# also code',
      '~~~~',
      '## After',
      'text',
    ].join('\n');
    expect(sectionsOf(content).map((s) => s.heading)).toEqual(['Code', 'After']);
    expect(sectionsOf(content)[0]!.end).toBe(content.indexOf('## After'));
  });

  it('reads closing #s, indentation up to three spaces, and not "#word", 7 #s or indented code', () => {
    const content = ['# Title ##', '   ## Indented', '#hashtag', '####### seven', '    # code', '### C#', '##', ''].join('\n');
    expect(sectionsOf(content).map((s) => [s.heading, s.level])).toEqual([
      ['Title', 1],
      ['Indented', 2],
      ['C#', 3],
      ['', 2],
    ]);
  });

  it('handles CRLF line endings and text without headings', () => {
    expect(sectionsOf('# A\r\nx\r\n# B\r\ny').map((s) => s.heading)).toEqual(['A', 'B']);
    expect(sectionsOf('just text\nmore')).toEqual([]);
    expect(sectionsOf('')).toEqual([]);
  });
});

describe('headingKey', () => {
  it('ignores case, spacing, #s, emphasis and a trailing word "section"', () => {
    for (const name of ['Budget', '  budget ', '## Budget ##', '**Budget**', 'Budget section', 'BUDGET Section']) {
      expect(headingKey(name)).toBe('budget');
    }
    expect(headingKey('Section')).toBe('section');
    expect(headingKey('Travel  Plans')).toBe('travel plans');
  });
});

describe('removeSection', () => {
  it('removes a section with its subsections and leaves one blank line where it was', () => {
    const { content, removed } = removeSection(DOC, 'flights');
    expect(removed).toEqual({ heading: 'Flights', level: 2 });
    expect(content).toBe('# Trip\n\nIntro text.\n\n## Hotels\n\nTwo nights.\n');
  });

  it('matches a heading written with "section" either side, and removes only the first match', () => {
    const content = '# Doc\n\n## Budget section\n\n1000\n\n## Budget\n\n2000\n';
    const result = removeSection(content, 'Budget');
    expect(result.removed).toEqual({ heading: 'Budget section', level: 2 });
    expect(result.content).toBe('# Doc\n\n## Budget\n\n2000\n');
    expect(removeSection('## Budget\n\nx\n\n## Other\n', 'Budget Section').content).toBe('## Other\n');
  });

  it('removes the last section, keeping a final newline, and a subsection alone', () => {
    expect(removeSection(DOC, 'Hotels').content).toBe(
      '# Trip\n\nIntro text.\n\n## Flights\n\nOutbound on Monday.\n\n### Return\n\nBack on Friday.\n',
    );
    expect(removeSection(DOC, 'Return').content).toBe(
      '# Trip\n\nIntro text.\n\n## Flights\n\nOutbound on Monday.\n\n## Hotels\n\nTwo nights.\n',
    );
  });

  it('removes the whole text when the section is all of it', () => {
    expect(removeSection(DOC, 'Trip')).toEqual({ content: '', removed: { heading: 'Trip', level: 1 } });
  });

  it('collapses extra blank lines around the gap to one', () => {
    const content = 'Intro\n\n\n\n## Gone\n\ntext\n\n\n\n## Kept\n';
    expect(removeSection(content, 'Gone').content).toBe('Intro\n\n## Kept\n');
  });

  it('does not take a # line inside a fence for the heading', () => {
    const content = '## Notes\n\n```\n## Budget\n```\n';
    expect(removeSection(content, 'Budget')).toEqual({ content, removed: null });
  });

  it('returns the content unchanged when no heading matches', () => {
    expect(removeSection(DOC, 'Trains')).toEqual({ content: DOC, removed: null });
    expect(removeSection(DOC, '   ')).toEqual({ content: DOC, removed: null });
    expect(removeSection('', 'Budget')).toEqual({ content: '', removed: null });
  });
});

describe('appendText', () => {
  it('adds the text after one blank line, ending with one newline', () => {
    expect(appendText('# Recipes\n\nPasta.', 'Lasagna')).toBe('# Recipes\n\nPasta.\n\nLasagna\n');
    expect(appendText('# Recipes\n\nPasta.\n\n\n', '\n\nLasagna\n\n')).toBe('# Recipes\n\nPasta.\n\nLasagna\n');
  });

  it('adds no blank line to an empty document', () => {
    expect(appendText('', 'First line')).toBe('First line\n');
    expect(appendText('  \n\n', '- a\n- b')).toBe('- a\n- b\n');
  });

  it('keeps the text verbatim, indentation and Markdown included', () => {
    expect(appendText('x', '    code\n## Heading *em*')).toBe('x\n\n    code\n## Heading *em*\n');
  });

  it('closes a fence left open so the text is not swallowed as code', () => {
    const content = appendText('```js\nconst a = 1;', 'After the code');
    expect(content).toBe('```js\nconst a = 1;\n```\n\nAfter the code\n');
    expect(sectionsOf(appendText('```\ncode', '## New')).map((s) => s.heading)).toEqual(['New']);
  });

  it('adds nothing for empty text', () => {
    expect(appendText('# A\n', '  \n ')).toBe('# A\n');
  });
});
