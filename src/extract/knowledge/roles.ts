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

/** Role words by the category names they answer (keys normalized). */
export const ROLES: Readonly<Record<string, readonly string[]>> = {
  family: FAMILY,
  'family member': FAMILY,
  relative: FAMILY,
  friend: FRIEND,
  neighbour: NEIGHBOUR,
  neighbor: NEIGHBOUR,
  owner: OWNER,
  own: OWNER,
  homeowner: OWNER,
  tenant: TENANT,
  renter: TENANT,
  rent: TENANT,
  renting: TENANT,
};
