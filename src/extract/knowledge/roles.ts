/**
 * Who someone is to the person (issue 26: general knowledge beyond a flow
 * author's synonyms): family, friends, neighbours, and owning or renting, as
 * categories of a question such as "Are you the owner, or booking for someone
 * else?" ("Owner" / "Family member" / "Friend or neighbour") or "Do you own or
 * rent?". Kept by hand: the kinship terms of English and the major European
 * languages (a closed set), normalized (lower case, no accents). Spouses and
 * partners are left out (a partner's pet or home is often the person's too),
 * as are words that read two ways ("Freund" is also a boyfriend, Spanish "son"
 * is "they are").
 */
import { PARTNERS } from './people.js';

const FAMILY = [
  'family', 'family member', 'relative', 'relatives', 'relation', 'mother', 'mum', 'mom', 'mam', 'mummy', 'mommy', 'father',
  'dad', 'daddy', 'parents', 'parent', 'brother', 'sister', 'sibling', 'siblings', 'my son', 'our son', 'her son', 'his son',
  'daughter', 'grandmother', 'grandma', 'granny', 'gran', 'nan', 'nana', 'grandfather', 'grandpa', 'grandad', 'granddad',
  'grandparents', 'grandson', 'granddaughter', 'grandchild', 'grandkids', 'aunt', 'auntie', 'aunty', 'uncle', 'cousin', 'niece',
  'nephew', 'in laws', 'mother in law', 'father in law', 'sister in law', 'brother in law', 'stepmother', 'stepfather', 'stepdad',
  'stepmum', 'stepmom', 'stepson', 'stepdaughter', 'stepbrother', 'stepsister',
  'madre', 'padre', 'mis padres', 'hermano', 'hermana', 'hijo', 'hija', 'abuela', 'abuelo', 'primo', 'prima', 'tia', 'tio',
  'sobrino', 'sobrina', 'familiar', 'mutter', 'vater', 'eltern', 'bruder', 'schwester', 'sohn', 'tochter', 'oma', 'opa', 'tante',
  'onkel', 'cousine', 'verwandte', 'verwandter', 'mere', 'pere', 'frere', 'soeur', 'fils', 'grand mere', 'grand pere', 'oncle',
  'famille', 'madre di', 'fratello', 'sorella', 'figlio', 'figlia', 'nonna', 'nonno', 'zia', 'zio', 'moeder', 'vader', 'broer',
  'zus', 'oma', 'opa', 'mae', 'pai', 'irmao', 'irma', 'avo',
];
const FRIEND = [
  'friend', 'friends', 'best friend', 'bestie', 'bff', 'mate', 'best mate', 'buddy', 'pal', 'amigo', 'amiga', 'ami', 'amie',
  'amico', 'amica', 'freundes', 'bekannte', 'bekannter', 'acquaintance',
];
const NEIGHBOUR = [
  'neighbour', 'neighbor', 'neighbours', 'neighbors', 'next door', 'lives next door', 'vecino', 'vecina', 'voisin', 'voisine',
  'nachbar', 'nachbarin', 'vicino', 'vicina', 'buurman', 'buurvrouw', 'vizinho', 'vizinha',
];
const OWNER = [
  'owner', 'the owner', 'homeowner', 'home owner', 'i own', 'we own', 'i own it', 'we own it', 'my own', 'our own', 'mine',
  'they are mine', 'owner occupier', 'propietario', 'propietaria', 'dueno', 'duena', 'proprietaire', 'besitzer', 'besitzerin',
  'eigentumer', 'eigentumerin', 'eigenaar', 'proprietario', 'proprietaria',
];
const TENANT = [
  'tenant', 'renter', 'renting', 'i rent', 'we rent', 'rented', 'rent', 'on a lease', 'inquilino', 'inquilina', 'locataire',
  'mieter', 'mieterin', 'zur miete', 'huurder', 'affittuario', 'in affitto', 'de alquiler', 'alquilado',
];

/**
 * Who an appointment, a booking or a claim is for, or who did something, as categories name them ("Myself" /
 * "My child" / "My partner" / "Someone else", "Me" / "Someone else"). The person themselves: */
const SELF = [
  'me', 'myself', 'for me', 'for myself', 'just me', 'only me', 'me only', 'me myself', 'it is me', 'it is for me', 'that is me',
  'i did', 'i was', 'i was driving', 'i drove', 'i am the patient', 'yours truly', 'moi', 'moi meme', 'pour moi', 'yo', 'yo mismo',
  'yo misma', 'para mi', 'ich', 'ich selbst', 'fur mich', 'io', 'per me', 'eu', 'para mim', 'ikzelf', 'voor mij',
];
/** Words for a son or a daughter, of any age, said with "my" or "our". */
const CHILD_WORDS = [
  'child', 'children', 'son', 'sons', 'daughter', 'daughters', 'kid', 'kids', 'boy', 'girl', 'little boy', 'little girl',
  'little one', 'little ones', 'baby', 'toddler', 'teenager', 'teen', 'eldest', 'youngest', 'oldest', 'stepson', 'stepdaughter',
];
/** A son or a daughter. */
const CHILD = [
  ...CHILD_WORDS.flatMap((w) => [`my ${w}`, `our ${w}`]), 'child', 'son', 'daughter',
  'mi hijo', 'mi hija', 'hijo', 'hija', 'mon fils', 'ma fille', 'mein sohn', 'meine tochter', 'sohn', 'tochter', 'mio figlio',
  'mia figlia', 'figlio', 'figlia', 'meu filho', 'minha filha', 'filho', 'filha', 'mijn zoon', 'mijn dochter',
];
/** Words for a spouse or partner, said with "my" or "the". */
const PARTNER_WORDS = [...PARTNERS, 'other half'];
/** A spouse or partner. */
const PARTNER = [
  ...PARTNER_WORDS.flatMap((w) => [`my ${w}`, `the ${w}`]), 'partner', 'wife', 'husband', 'spouse', 'boyfriend', 'girlfriend',
  'fiance', 'fiancee', 'hubby', 'other half',
  'ma femme', 'mon mari', 'mon copain', 'ma copine', 'mi esposa', 'mi esposo', 'mi marido', 'mi mujer', 'mi novio', 'mi novia',
  'meine frau', 'mein mann', 'meine freundin', 'mia moglie', 'mio marito', 'il mio ragazzo', 'la mia ragazza', 'minha esposa',
  'minha mulher', 'meu marido', 'mijn vrouw', 'mijn man',
];
/** A grandmother or grandfather (of the person or of their child: either is a grandparent to someone in the answer). */
const GRANDPARENT = [
  'grandparent', 'grandparents', 'grandmother', 'grandma', 'granny', 'gran', 'nan', 'nana', 'nanna', 'grandfather', 'grandpa',
  'grandad', 'granddad', 'gramps', 'grampa', 'abuela', 'abuelo', 'abuelos', 'oma', 'opa', 'grand mere', 'grand pere',
  'mamie', 'papi', 'papy', 'nonna', 'nonno', 'nonni', 'avo', 'avos', 'grootmoeder', 'grootvader',
];
/** Anyone else the person may name. */
const SOMEONE_ELSE = [
  ...CHILD, ...PARTNER, ...FAMILY, ...FRIEND, ...NEIGHBOUR.filter((w) => w !== 'next door'),
  'colleague', 'my colleague', 'a colleague', 'coworker', 'co worker', 'workmate', 'my boss', 'my manager', 'flatmate',
  'my flatmate', 'roommate', 'my roommate', 'housemate', 'my housemate', 'lodger', 'our lodger', 'my client', 'a client',
  'my carer', 'my nanny', 'our nanny', 'au pair', 'our au pair', 'my employee', 'someone else', 'somebody else', 'another person',
  'another driver', 'someone i know', 'somebody i know', 'a family member', 'family member', 'a relative', 'a friend',
];

/** Whoever lets or manages a rented home for its owner. */
const LANDLORD = [
  'landlord', 'landlady', 'my landlord', 'my landlady', 'the landlord', 'the landlady', 'letting agent', 'letting agency',
  'the letting agent', 'estate agent', 'the agent', 'the agency', 'property manager', 'the property manager', 'managing agent',
  'management company', 'the management company', 'building manager', 'caretaker', 'the caretaker', 'concierge', 'janitor',
  'superintendent', 'the super', 'vermieter', 'vermieterin', 'hausverwaltung', 'hausmeister', 'casero', 'casera', 'arrendador',
  'bailleur', 'proprietaire du logement', 'gardien', 'padrone di casa', 'verhuurder',
];

/** No one with the person: alone. */
const ALONE = [
  'alone', 'on my own', 'by myself', 'just me', 'only me', 'just myself', 'me alone', 'solo', 'nobody', 'no one', 'noone',
  'nobody else', 'no one else', 'allein', 'alleine', 'seul', 'seule', 'tout seul', 'toute seule', 'solo yo', 'yo solo', 'yo sola',
  'sola', 'da solo', 'da sola', 'sozinho', 'sozinha', 'alleen', 'in mijn eentje',
];

/**
 * "Para mi hija": Spanish "for my" is written as "for me" once its accent is gone ("para mí"), so a person named
 * with "mi" is named with "para mi" too, or "para mi" would read as the person themselves.
 */
const forMy = (words: readonly string[]) => [...words, ...words.filter((w) => w.startsWith('mi ')).map((w) => `para ${w}`)];

/** Role words by the category names they answer (keys normalized). */
export const ROLES: Readonly<Record<string, readonly string[]>> = {
  'no one': ALONE,
  nobody: ALONE,
  'no one else': ALONE,
  'nobody else': ALONE,
  alone: ALONE,
  'just me': ALONE,
  'on my own': ALONE,
  me: SELF,
  myself: SELF,
  'for myself': SELF,
  'for me': SELF,
  'my child': forMy(CHILD),
  child: forMy(CHILD),
  'my children': forMy(CHILD),
  'my kid': forMy(CHILD),
  'my partner': forMy(PARTNER),
  partner: forMy(PARTNER),
  spouse: forMy(PARTNER),
  'my spouse': forMy(PARTNER),
  'someone else': forMy(SOMEONE_ELSE),
  'somebody else': forMy(SOMEONE_ELSE),
  'another person': forMy(SOMEONE_ELSE),
  'other person': forMy(SOMEONE_ELSE),
  family: forMy(FAMILY),
  'family member': forMy(FAMILY),
  grandparent: forMy(GRANDPARENT),
  grandparents: forMy(GRANDPARENT),
  relative: forMy(FAMILY),
  friend: forMy(FRIEND),
  neighbour: forMy(NEIGHBOUR),
  neighbor: forMy(NEIGHBOUR),
  owner: OWNER,
  own: OWNER,
  homeowner: OWNER,
  tenant: TENANT,
  landlord: LANDLORD,
  agent: LANDLORD,
  'letting agent': LANDLORD,
  renter: TENANT,
  rent: TENANT,
  renting: TENANT,
};

/**
 * Categories whose words other categories of the same question may name more closely ("my son" is "My child"
 * where there is one, and "Someone else" only where there is not): their words come after every other's.
 */
export const BROAD_ROLES: ReadonlySet<string> = new Set([
  'someone else', 'somebody else', 'another person', 'other person', 'family', 'family member', 'relative',
  // ("Just me" is "Me" where there is one, "No one" with me only where there is not: "Who was driving? Me / Nobody".)
  'no one', 'nobody', 'no one else', 'nobody else', 'alone', 'just me', 'on my own',
]);

/**
 * Category names (normalized) that name the person an answer is about, from the speaker's side ("Myself",
 * "My child", "Someone else"): the answer to "who is it for?", "who drove?". Asked of the speaker's own role
 * instead ("Family member" or "Friend or neighbour", asked "are you the owner?"), a role word is not the person
 * but what the speaker is to the thing, and "my cousin has the keys" is someone else's doing.
 */
export const PERSON_CATEGORIES: ReadonlySet<string> = new Set([
  'me', 'myself', 'for myself', 'for me', 'my child', 'my children', 'my kid', 'my partner', 'my spouse', 'someone else',
  'somebody else', 'another person', 'other person',
]);
/** Of those, the ones that mean being alone: said only asked who comes along (who-asked.ts asksAboutCompany). */
export const ALONE_ROLES: ReadonlySet<string> = new Set(['no one', 'nobody', 'no one else', 'nobody else', 'alone', 'just me', 'on my own']);
