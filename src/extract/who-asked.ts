/**
 * Questions of who (issue 26): "Who is the appointment for?" with "Myself" / "My child" / "Someone else", "Who
 * will let the plumber in?" with "Me" / "A family member" / "A neighbour or friend". There a person word is the
 * answer itself, even as the subject of what the message says ("my brother drove", "my mum will be in"), and a
 * person denied in their own clause is not ("I won't be there myself"). Elsewhere a person who does something
 * is someone else's doing (subject.ts).
 */
import { normalize, tokenize } from './normalize.js';
import { PERSON_CATEGORIES, ROLES } from './knowledge/roles.js';

const WHO = new Set(['who', 'whom', 'whose']);
const asksWhoCache = new Map<string, boolean>();

/** Whether `prompt` asks who ("Who was driving?", "For whom is the booking?"). */
export function asksWho(prompt: string | undefined): boolean {
  if (prompt === undefined) return false;
  let asks = asksWhoCache.get(prompt);
  if (asks === undefined) {
    if (asksWhoCache.size > 1000) asksWhoCache.clear();
    asksWhoCache.set(prompt, (asks = tokenize(prompt).some((t) => WHO.has(t))));
  }
  return asks;
}

/** A category's name, normalized, without a leading article ("A family member": "family member"). */
export const bareName = (category: string) => normalize(category).replace(/^(?:a|an|the) /u, '');

/** Whether a category names someone by who they are to the person ("A family member", "Friend or neighbour"). */
function namesRole(category: string): boolean {
  return [bareName(category), ...bareName(category).split(' or ').map((p) => p.replace(/^(?:a|an|the) /u, ''))].some((name) => name in ROLES);
}

/**
 * Whether a person word read as `category` is the answer itself: the category names the person the answer is
 * about ("My child", "Someone else"), or the question asks who and the category names a role ("A family member").
 */
export function personIsAnswer(category: string, prompt: string | undefined): boolean {
  return PERSON_CATEGORIES.has(bareName(category)) || (asksWho(prompt) && namesRole(category));
}
