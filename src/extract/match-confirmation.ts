import { CONFIRM_PHRASES, EDIT_PHRASES } from './lexicon.js';
import { BREAK, normalize, tokenize } from './normalize.js';
import { readYesNo } from './knowledge/yes-no.js';

const words = (phrase: string) => tokenize(phrase).filter((t) => t !== BREAK);
const CONFIRM = CONFIRM_PHRASES.map(words);
const EDIT = EDIT_PHRASES.map(words);

/**
 * Reads a reply to the summary. It is a confirmation only when it says so
 * ("yes, that's correct", the confirm label) and asks for no change; anything
 * else is a wish to edit, as in the seed (case 1.2.2).
 */
export function classifyConfirmation(
  text: string,
  labels: { confirmLabel: string; editLabel: string },
): 'confirm' | 'edit' {
  const whole = normalize(text);
  if (whole === normalize(labels.editLabel)) return 'edit';
  if (whole === normalize(labels.confirmLabel)) return 'confirm';
  if (/\?\s*$/.test(text)) return 'edit';
  const tokens = tokenize(text);
  // A plain yes or no in words, in any major language ("sí", "nein, stimmt nicht").
  const said = readYesNo(text, tokens);
  if (said !== undefined) return said === 'yes' ? 'confirm' : 'edit';
  const has = (phrase: string[]) =>
    tokens.some((_, i) => phrase.length > 0 && phrase.every((t, k) => tokens[i + k] === t));
  if (EDIT.some(has) || has(words(labels.editLabel))) return 'edit';
  return CONFIRM.some(has) || has(words(labels.confirmLabel)) ? 'confirm' : 'edit';
}

/** Whether a reply to the summary asks to change something ("edit", "that's wrong", the edit label), named or not. */
export function asksToEdit(text: string, labels: { editLabel: string }): boolean {
  const tokens = tokenize(text);
  const has = (phrase: string[]) => tokens.some((_, i) => phrase.length > 0 && phrase.every((t, k) => tokens[i + k] === t));
  return normalize(text) === normalize(labels.editLabel) || EDIT.some(has) || has(words(labels.editLabel));
}
