import { BREAK, tokenize } from '../normalize.js';
import { COUNTRIES } from './places.generated.js';

/**
 * Places by the country and continent they are in (issue 26: general
 * knowledge beyond a flow author's synonyms), from countries-list (names,
 * native names, aliases, capitals: places.generated.ts) and, by hand, the
 * parts of countries and places people travel to by name ("Mallorca",
 * "Scotland", "the States").
 *
 * Left out: names that are everyday words or names of people or other places
 * ("US" is "us", "Jordan", "Chad", "Sofia", "Jersey", "Victoria"), and countries
 * on two continents, which travel cover counts either way (Russia, Turkey, the
 * Caucasus, Kazakhstan, Cyprus, Egypt): a place there reads as nothing.
 */
export interface Place {
  /** ISO 3166-1 alpha-2 code, or a region of several ("EU" for "the Schengen area"). */
  country: string;
  /** Continent code (countries-list's: EU, AS, AF, NA, SA, OC, AN). */
  continent: string;
  /** A region of several countries ("Scandinavia"). */
  several?: true;
}

const LEFT_OUT = new Set([
  'us', 'jordan', 'chad', 'sofia', 'jersey', 'victoria', 'kingston', 'hamilton', 'georgetown', 'san jose', 'saint johns', 'st johns',
  'plymouth', 'the valley', 'road town', 'santiago', 'male', 'praia', 'togo', 'sucre', 'nassau', 'guinea', 'niger', 'georgia',
  'america', 'saint george s', 'castries', 'kingstown', 'avarua', 'alofi', 'basseterre', 'majuro',
]);
const TWO_CONTINENTS = new Set(['RU', 'TR', 'GE', 'AZ', 'AM', 'KZ', 'CY', 'EG']);

/** Places travelled to by name that are parts of a country, by its code. */
const PARTS: Readonly<Record<string, readonly string[]>> = {
  GB: ['england', 'scotland', 'wales', 'northern ireland', 'edinburgh', 'manchester', 'cornwall', 'the lake district'],
  NL: ['holland'],
  CZ: ['czechia', 'prague'],
  ES: ['mallorca', 'majorca', 'ibiza', 'menorca', 'tenerife', 'the canaries', 'canary islands', 'gran canaria', 'lanzarote', 'fuerteventura', 'barcelona', 'seville', 'malaga', 'valencia'],
  GR: ['crete', 'corfu', 'rhodes', 'santorini', 'mykonos', 'kos', 'zakynthos'],
  IT: ['sicily', 'sardinia', 'tuscany', 'venice', 'florence', 'milan', 'naples', 'lake garda', 'the dolomites'],
  FR: ['corsica', 'provence', 'lyon', 'marseille', 'the riviera', 'normandy', 'brittany'],
  PT: ['madeira', 'the azores', 'azores', 'algarve', 'the algarve', 'porto'],
  DE: ['bavaria', 'munich', 'hamburg', 'the black forest'],
  FI: ['lapland'],
  CH: ['zurich', 'geneva'],
  AT: ['vienna', 'salzburg', 'tyrol'],
  HR: ['dubrovnik'],
  PL: ['krakow'],
  US: ['the states', 'the us', 'the usa', 'new york', 'florida', 'california', 'hawaii', 'las vegas', 'orlando', 'texas'],
  CA: ['toronto', 'vancouver', 'montreal'],
  AE: ['dubai', 'abu dhabi'],
  ID: ['bali'],
  TH: ['phuket', 'koh samui'],
  AU: ['sydney', 'melbourne', 'brisbane'],
  MX: ['cancun'],
  MA: ['marrakech', 'marrakesh'],
  ZA: ['cape town'],
  IN: ['goa'],
  JP: ['kyoto', 'osaka'],
};
/** Regions of several countries, by the continent they are in. */
const REGIONS: Readonly<Record<string, readonly string[]>> = {
  EU: ['scandinavia', 'the balkans', 'benelux', 'schengen', 'the schengen area', 'schengen area', 'the eu', 'the alps', 'the baltics'],
  NA: ['the caribbean'],
  AS: ['south east asia', 'southeast asia'],
};

const phrase = (name: string) => tokenize(name.replace(/[()]/gu, ' ')).filter((t) => t !== BREAK);

let index: Map<string, Place> | undefined;
/** Every name, as the tokens it is written in joined by a space, to its place (built once, on first use). */
function places(): Map<string, Place> {
  if (index) return index;
  index = new Map();
  const add = (name: string, place: Place) => {
    const key = phrase(name).join(' ');
    if (key === '' || LEFT_OUT.has(key)) return;
    // A name two countries share ("Guinea") names neither.
    const known = index!.get(key);
    if (known && known.country !== place.country) index!.set(key, { country: '', continent: '' });
    else index!.set(key, place);
  };
  for (const [country, continent, names] of COUNTRIES) if (!TWO_CONTINENTS.has(country)) for (const n of names) add(n, { country, continent });
  const continentOf = new Map(COUNTRIES.map(([c, k]) => [c, k]));
  for (const [country, names] of Object.entries(PARTS)) for (const n of names) add(n, { country, continent: continentOf.get(country)! });
  for (const [continent, names] of Object.entries(REGIONS)) for (const n of names) add(n, { country: continent, continent, several: true });
  return index;
}
const LONGEST = 4;

/** The places a message names, longest name first at each word: where each is (`at`), its words, and the place. */
export function placesIn(tokens: readonly string[]): { at: number; end: number; place: Place }[] {
  const table = places();
  const found: { at: number; end: number; place: Place }[] = [];
  for (let i = 0; i < tokens.length; ) {
    let hit: { end: number; place: Place } | undefined;
    for (let n = Math.min(LONGEST, tokens.length - i); n >= 1 && !hit; n--) {
      const place = table.get(tokens.slice(i, i + n).join(' '));
      if (place) hit = { end: i + n, place };
    }
    if (hit) {
      found.push({ at: i, ...hit });
      i = hit.end;
    } else i++;
  }
  return found;
}

/** The continent a name means, if it is a continent's name ("Europe", "Asia", "South America"). */
export const CONTINENT_NAMES: Readonly<Record<string, string>> = {
  europe: 'EU', asia: 'AS', africa: 'AF', 'north america': 'NA', 'south america': 'SA', oceania: 'OC', australasia: 'OC',
};
