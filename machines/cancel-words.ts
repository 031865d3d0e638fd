/**
 * Words that end what an agent is doing, whatever it asked (issue 27): typed
 * by the person, they are a cancel even when one of a question's values is
 * the same word; only a picked button (an answer by the gate's id) is taken
 * as that value.
 */
export const CANCEL_WORDS: readonly string[] = ['stop', 'cancel', 'do nothing', 'never mind', 'nevermind', 'abort', 'quit', 'forget it'];

/** Whether the person's words are a cancel word ("Stop.", "please cancel", "never mind!"). */
export function isCancelWord(text: string): boolean {
  const said = text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\s.!…]+$/u, '')
    .replace(/^\s*(?:please|ok|okay|no)[\s,]+/u, '')
    .replace(/[\s,]+please$/u, '')
    .trim();
  return CANCEL_WORDS.includes(said);
}
