/**
 * Questions of who (issue 26): "Who is the appointment for?" with "Myself" / "My child" / "Someone else", "Who
 * will let the plumber in?" with "Me" / "A family member" / "A neighbour or friend". There a person word is the
 * answer itself, even as the subject of what the message says ("my brother drove", "my mum will be in"), and a
 * person denied in their own clause is not ("I won't be there myself"). Elsewhere a person who does something
 * is someone else's doing (subject.ts).
 */
import { clauseEnd, clauseStart, normalize, tokenize } from './normalize.js';
import { ALONE_ROLES, PERSON_CATEGORIES, ROLES } from './knowledge/roles.js';

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

const COMPANY = new Set(['with', 'alongside', 'along', 'join', 'joining', 'accompany', 'accompanying', 'else', 'together', 'besides', 'companion']);
/** Whether `prompt` asks who comes along or who else ("Will anyone volunteer alongside you?", "Who else will drive?"). */
export function asksAboutCompany(prompt: string | undefined): boolean {
  return prompt !== undefined && tokenize(prompt).some((t) => COMPANY.has(t));
}

/** Words without a leading article, or "another" ("a neighbour": "neighbour", "another family member": "family member"). */
export const withoutArticle = (words: string) => words.replace(/^(?:a|an|the|another|other|any other) /u, '');
/** A category's name, normalized, without a leading article ("A family member": "family member"). */
export const bareName = (category: string) => withoutArticle(normalize(category));

/** Whether a category names someone by who they are to the person ("A family member", "Friend or neighbour"). */
function namesRole(category: string): boolean {
  return [bareName(category), ...bareName(category).split(' or ').map(withoutArticle)].some((name) => Object.hasOwn(ROLES, name));
}

/**
 * Whether a person word read as `category` is the answer itself: the category names the person the answer is
 * about ("My child", "Someone else"), or the question asks who and the category names a role ("A family member").
 */
export function personIsAnswer(category: string, prompt: string | undefined): boolean {
  return PERSON_CATEGORIES.has(bareName(category)) || (asksWho(prompt) && namesRole(category));
}

/** Whether a category means nobody beside the person ("No one", "Just me"). */
export function namesNoOne(category: string): boolean {
  return ALONE_ROLES.has(bareName(category));
}

/** Words of a clause that say nothing beside the person named ("it's for my son", "my mum will be in"). */
const FILLERS = new Set([
  'it', 'is', 's', 'its', 'for', 'just', 'only', 'the', 'my', 'our', 'a', 'an', 'will', 'be', 'was', 'were', 'has', 'had', 'been', 'can',
  'could', 'would', 'going', 'to', 'gonna', 'there', 'here', 'in', 'please', 'one', 'who', 'that', 'actually', 'up', 'then', 'this',
  'time', 'do', 'does', 'did', 'so', 'too', 'also', 'at', 'on', 'of', 'with', 'by',
  // Whom the asked doing is done to ("my neighbour will let him in", "my mum drives me"): the question's own object, no other news.
  'him', 'her', 'them', 'me', 'us', 'and',
  // Kisses and laughter at the end of a message ("nana's picking her up x").
  'x', 'xx', 'xxx',
  // Being there: "my mum will be at home", "my son is around".
  'home', 'around', 'available',
  // "For" in the major languages ("per mia moglie", "para mi hijo", "pour ma fille", "für meinen Sohn").
  'per', 'para', 'pour', 'fur', 'voor',
]);
/** The doings questions of who ask about, by stem, and the everyday words for each ("collect": "pick up", "fetch"). */
const SAME_DOING: Readonly<Record<string, readonly string[]>> = {
  collect: ['pick', 'fetch'],
  pick: ['collect', 'fetch'],
  open: ['let'],
  let: ['open'],
  accompany: ['com', 'join'],
};
/** Verbs after which comes what the person needs: the appointment, the booking ("my son needs a check-up"). */
const NEEDS = new Set(['needs', 'need', 'needed', 'wants', 'requires']);
/** Past forms whose stem is not the present's ("drove" of "driving"). */
const IRREGULAR: Readonly<Record<string, string>> = {
  drove: 'drive', driven: 'drive', took: 'take', taken: 'take', came: 'come', went: 'go', gone: 'go', brought: 'bring', rode: 'ride',
  ridden: 'ride', sat: 'sit', met: 'meet', kept: 'keep', held: 'hold',
};
const stem = (w: string) => (IRREGULAR[w] ?? w).replace(/(?:ing|ed|es|e|s)$/u, '');
const promptStems = new Map<string, ReadonlySet<string>>();

/**
 * Whether the clause around a person named at [start, end) says only that they are the one asked about: nothing
 * but the person and fillers ("it's for my son"), what the question asks ("my brother drove" asked who was
 * driving), or what they need ("my son needs a check-up"). "My husband had his done here" says something else.
 */
export function namesTheOneAsked(tokens: readonly string[], start: number, end: number, prompt: string | undefined): boolean {
  if (prompt === undefined) return false;
  let asked = promptStems.get(prompt);
  if (!asked) {
    if (promptStems.size > 1000) promptStems.clear();
    const stems = tokenize(prompt).filter((t) => !FILLERS.has(t) && t.length > 2).map(stem);
    promptStems.set(prompt, (asked = new Set([...stems, ...stems.flatMap((s) => SAME_DOING[s] ?? [])])));
  }
  const from = clauseStart(tokens, start);
  const to = clauseEnd(tokens, end);
  // The words that tell who the person is ("a colleague of mine", "a mate from work", "the lady next door") are the person.
  const named = end + describingLength(tokens, end, to);
  for (let i = from; i < to; i++) {
    if (i >= start && i < named) continue;
    const t = tokens[i]!;
    if (NEEDS.has(t) && i >= end) return true;
    if (!FILLERS.has(t) && !asked.has(stem(t))) return false;
  }
  return true;
}

const OWNERS = new Set(['mine', 'ours', 'yours', 'his', 'hers', 'theirs']);
/**
 * How many words at `i` (before `to`) tell who a person just named is: "of mine", "from work",
 * "from the gym", "next door", "down the road", "upstairs" (a phrase with no verb: it says nothing else of them).
 */
function describingLength(tokens: readonly string[], i: number, to: number): number {
  const t = tokens[i];
  if (t === 'of' && OWNERS.has(tokens[i + 1] ?? '')) return 2;
  if (t === 'from') {
    // "from work", "from the gym"; "from next door", "from down the road" (a place phrase of its own).
    let k = i + 1;
    if (tokens[k] === 'the' || tokens[k] === 'my' || tokens[k] === 'our') k++;
    if (k >= to) return 0;
    const place = describingLength(tokens, k, to);
    return place > 0 ? k - i + place : k + 1 - i;
  }
  if (t === 'next' && tokens[i + 1] === 'door') return 2;
  if (t === 'upstairs' || t === 'downstairs' || t === 'opposite') return 1;
  if ((t === 'down' || t === 'across' || t === 'up' || t === 'over') && tokens[i + 1] === 'the' && i + 2 < to) return 3;
  return 0;
}
