/**
 * Words for the people around a person, in English as people type them ("gf", "hubby", "mum", "flatmate"),
 * normalized (lower case, no accents), single words. One vocabulary for every reader: who said what of whom
 * (subject.ts), who lives in the home, who may be the person a question asks about, and who is no pet. Before,
 * each reader kept its own list, and "my gf smokes sometimes" was read where "my girlfriend" was and not where
 * "gf" was missing. Phrases in other languages, and the roles a category names, are in roles.ts.
 */

/** A spouse or partner. */
export const PARTNERS = ['partner', 'wife', 'husband', 'spouse', 'boyfriend', 'girlfriend', 'bf', 'gf', 'fiance', 'fiancee', 'hubby', 'wifey', 'missus', 'mrs'] as const;
/** A son or a daughter, of any age. */
export const CHILDREN = [
  'son', 'sons', 'daughter', 'daughters', 'child', 'children', 'kid', 'kids', 'baby', 'toddler', 'teenager', 'teen', 'boy', 'girl',
  'stepson', 'stepdaughter',
] as const;
/** A mother or a father. */
export const PARENTS = [
  'mother', 'mum', 'mom', 'mam', 'mummy', 'mommy', 'father', 'dad', 'daddy', 'parent', 'parents', 'stepmother', 'stepfather',
  'stepmum', 'stepmom', 'stepdad',
] as const;
/** A brother or a sister. */
export const SIBLINGS = ['brother', 'brothers', 'sister', 'sisters', 'sibling', 'siblings', 'stepbrother', 'stepsister'] as const;
/** Grandparents and grandchildren. */
export const GRANDS = [
  'grandmother', 'grandma', 'granny', 'gran', 'nan', 'nana', 'grandfather', 'grandpa', 'grandad', 'granddad', 'grandparent',
  'grandparents', 'grandson', 'granddaughter', 'grandchild', 'grandkids',
] as const;
/** Aunts, uncles, cousins and the rest of a family. */
export const KIN = ['cousin', 'aunt', 'auntie', 'aunty', 'uncle', 'nephew', 'niece', 'relative', 'relatives'] as const;
/** Those who share a home without being family. */
export const HOUSEMATES = ['roommate', 'flatmate', 'housemate', 'lodger'] as const;
/** Friends, neighbours and people from work. */
export const ACQUAINTANCES = [
  'friend', 'friends', 'mate', 'buddy', 'pal', 'bestie', 'bff', 'neighbour', 'neighbours', 'neighbor', 'neighbors', 'colleague',
  'colleagues', 'coworker', 'workmate', 'boss', 'ex',
] as const;
/** Anyone else a person may name by what they are. */
export const OTHER_PEOPLE = [
  'landlord', 'landlady', 'tenant', 'tenants', 'sitter', 'owner', 'owners', 'guy', 'man', 'woman', 'lady', 'bloke', 'people', 'doctor',
  'vet', 'trainer',
] as const;

/** Family: on a question about a person other than "you" (the patient, a child), one of them may be the one it is about. */
export const FAMILY: ReadonlySet<string> = new Set([...PARTNERS, ...CHILDREN, ...PARENTS, ...SIBLINGS, ...GRANDS, ...KIN]);
/** Those who share the person's home: on a question about anyone in it ("anyone who will live in the flat"), they count. */
export const HOUSEHOLD: ReadonlySet<string> = new Set([...PARTNERS, ...CHILDREN, ...HOUSEMATES]);
/** Every word here: a person other than the one speaking. */
export const PEOPLE: ReadonlySet<string> = new Set([...FAMILY, ...HOUSEMATES, ...ACQUAINTANCES, ...OTHER_PEOPLE]);
