/**
 * Who an input gate waits for, in words: "a manager", "an auditor", and for
 * a group or a plural no article ("staff", "support", "managers"), never
 * "a staff"; a named unit takes "the" ("the finance team"). One rule for the flow's replies and the widget.
 */

/** Roles named without an article: words for a group, not for one person. */
const GROUP_WORDS = /(?:^|\s)(?:staff|personnel|support|management|security|admin|administration|finance|legal|hr|it|sales|billing|reception|team|crew)$/i;

/** A role as it reads after "Waiting for": "-" and "_" read as spaces. */
export function roleInWords(role: string): string {
  const words = role.replace(/[-_]+/g, ' ').trim();
  // A named unit of several words: "the finance team", "the front desk".
  if (/\s(?:team|crew|desk|department|office|committee|board)$/i.test(words)) return `the ${words}`;
  // A group, or a plural ("managers", not "boss"): no article.
  if (GROUP_WORDS.test(words) || /[^s]s$/i.test(words)) return words;
  return `${/^[aeiou]/i.test(words) ? 'an' : 'a'} ${words}`;
}
