/**
 * Strings that come from outside (ids, turn ids, token subjects, text) before
 * they reach a store or a message.
 */

/**
 * Whether a string is well-formed UTF-16: no lone surrogate. Text columns
 * rewrite a lone surrogate to U+FFFD, so two different ill-formed ids would
 * become one; such strings are refused, never stored.
 */
export function isWellFormed(value: string): boolean {
  // With the `u` flag a surrogate pair is one code point, so this matches lone halves only.
  return !/[\uD800-\uDFFF]/u.test(value);
}

/** The longest prefix of an id or token that an error message repeats. */
export const QUOTED_PREFIX_LENGTH = 24;

/**
 * A value for an error message: JSON-quoted (control characters and lone
 * surrogates escaped) and cut to a short prefix, so that a message never
 * echoes a whole token or a megabyte of input.
 */
export function quote(value: string, max = QUOTED_PREFIX_LENGTH): string {
  const chars = Array.from(value);
  return chars.length > max ? `${JSON.stringify(chars.slice(0, max).join(''))}…` : JSON.stringify(value);
}
