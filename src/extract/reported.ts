/**
 * Words quoted from a source are the source's, not the person's answer (issue 26: "a value is committed only
 * when the reader can point to the words in this message that assert it, by the person"). A span in quotation
 * marks that a reporting verb or a colon introduces ("the ad said "lift: yes"", "the form reads: 'single'") is
 * what a sign, a page, a letter or someone else says: the readers see the message without it. The person's
 * own quoting ("I said "no"") stays.
 */

/** Verbs that report what a source says, as written before what they quote. */
const REPORTING = /(?:\b(?:says?|said|reads?|states?|stated|lists?|listed|shows?|showed|writes?|wrote|claims?|claimed|mentions?|mentioned|puts?|tells me|told me|told us|goes|went)|:)\s*$/iu;
/** The person as the reporter ("I said", "we wrote"): their own words. */
const SELF_REPORTER = /\b(?:i|we|i've|we've|i'd|we'd)\s+(?:\w+\s+)?(?:says?|said|wrote|write|put|told|mentioned|stated|listed|claimed)\s*:?\s*$/iu;
/** Quoted spans: straight or curly double quotes, and single quotes that open after a space and close before one. */
const QUOTED = /"[^"\n]{1,200}"|“[^”\n]{1,200}”|„[^“”\n]{1,200}[“”]|«[^»\n]{1,200}»|(?<=^|[\s:(])['‘][^'’\n]{1,200}['’](?=$|[\s.,;:!?)])/gu;

/** The message without the spans it quotes from a source (the same text when it quotes none). */
export function withoutReported(text: string): string {
  if (!/["“„«'‘]/u.test(text)) return text;
  return text.replace(QUOTED, (span, at: number) => {
    const before = text.slice(Math.max(0, at - 60), at);
    return REPORTING.test(before) && !SELF_REPORTER.test(before) ? ' '.repeat(span.length) : span;
  });
}
