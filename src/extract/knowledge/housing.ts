/**
 * Kinds of home (issue 26: general knowledge beyond a flow author's
 * synonyms): the words people use for a house, a flat and a mobile home, in
 * English and the major European languages. Kept by hand (WordNet's hyponyms
 * of "house" and "apartment" hold many that are no home one insures: "guardhouse",
 * "duplex" read two ways). Keys are category names as normalized; none of them
 * ever answers a question not being asked.
 */
const HOUSE = [
  'house', 'a house', 'detached', 'detached house', 'semi detached', 'semi detached house', 'semi', 'terraced', 'terraced house',
  'terrace house', 'end of terrace', 'end terrace', 'townhouse', 'town house', 'row house', 'bungalow', 'cottage', 'villa',
  'farmhouse', 'single family home', 'single family house', 'haus', 'einfamilienhaus', 'reihenhaus', 'doppelhaushalfte',
  'casa', 'una casa', 'maison', 'une maison', 'huis', 'een huis', 'vivienda unifamiliar', 'chalet',
];
const FLAT = [
  'flat', 'a flat', 'apartment', 'an apartment', 'appartment', 'apt', 'condo', 'condominium', 'studio', 'studio flat',
  'studio apartment', 'penthouse', 'bedsit', 'flat in a block', 'wohnung', 'etagenwohnung', 'eigentumswohnung', 'appartement',
  'un appartement', 'piso', 'un piso', 'apartamento', 'departamento', 'appartamento', 'flat share',
];
const MOBILE_HOME = [
  'mobile home', 'caravan', 'static caravan', 'trailer', 'trailer home', 'park home', 'manufactured home', 'mobilheim',
  'mobil home', 'casa movil', 'maison mobile',
];

/** Kinds of home by the category names they answer. */
export const HOUSING: Readonly<Record<string, readonly string[]>> = {
  house: HOUSE,
  flat: FLAT,
  apartment: FLAT,
  'mobile home': MOBILE_HOME,
};
