import { ANSWER_FILLERS, NEGATORS, THANKS_AND_GREETINGS, UNCERTAIN_PHRASES } from './lexicon.js';
import { BREAK, tokenize } from './normalize.js';
import { unasserted } from './assertion.js';
import { plainStatement } from './restated.js';
import { CONTINENT_NAMES, placesIn, type Place } from './knowledge/places.js';
import type { MatchableQuestion } from './match-category.js';

/**
 * A question whose categories are regions ("Europe", "Worldwide", "Within my
 * country", "UK only"), answered by the places a trip goes to (issue 26,
 * general knowledge): "Norway and Sweden" is Europe, "Thailand and Vietnam"
 * Worldwide (knowledge/places.ts).
 *
 * Each place goes to the narrowest category that holds it: one that names its
 * country, else its continent, else the rest of the world. Places in several
 * go to the widest of them (Spain and Morocco: Worldwide). Where a category is
 * the person's own country ("Within my country"), which country that is is not
 * known: one country named may be it, so only a trip through two countries or
 * more is read. Only a plain message is read: every clause names a place and
 * is a plain statement of the one asked, now (restated.ts), or holds fillers
 * alone; no denial, hedge, contrast, question, laughter or irony anywhere.
 */

const WORLD = new Set(['worldwide', 'world', 'anywhere', 'elsewhere', 'rest', 'outside', 'international', 'global']);
const DOMESTIC = [['my', 'country'], ['domestic'], ['home', 'country'], ['national'], ['own', 'country'], ['within', 'the', 'country']];
/** Words of a trip that say nothing against where it goes ("a road trip through …", "flying to …"). */
const TRIP = new Set([
  'we', 'i', 'are', 'am', 'is', 'will', 'be', 'going', 'go', 'to', 'travelling', 'traveling', 'flying', 'fly', 'visiting', 'visit',
  'doing', 'a', 'an', 'the', 'road', 'trip', 'tour', 'through', 'around', 'across', 'in', 'and', 'then', 'plus', 'also', 'both',
  'holiday', 'vacation', 'honeymoon', 'on', 'for', 'off', 'heading', 'head', 'it', 's', 'that', 'via', 'with', 'stop', 'stopover',
  'over', 'some', 'week', 'weeks', 'days', 'few', 'couple', 'of', 'first', 'after', 'ending', 'up', 'from', 'there', 'back', 'just',
]);
const FILLERS = new Set([...ANSWER_FILLERS, ...THANKS_AND_GREETINGS]);
const NEGATOR_SET = new Set(NEGATORS);
const TURNS = new Set(['but', 'though', 'although', 'however', 'except', 'or', 'if', 'unless', 'mostly', 'mainly', 'maybe', 'perhaps', 'probably', 'instead', 'rather']);
const UNCERTAIN = UNCERTAIN_PHRASES.map((p) => tokenize(p));

interface Regions {
  byCountry: Map<string, string>;
  byContinent: Map<string, string>;
  world: string | undefined;
  domestic: boolean;
}

const regionsOf = new Map<string, Regions | null>();
/** The question's categories as regions, or null where they are none (read once per set of categories). */
function regions(gate: MatchableQuestion): Regions | null {
  const key = gate.categories.join('\u0000');
  let found = regionsOf.get(key);
  if (found !== undefined) return found;
  const byCountry = new Map<string, string>();
  const byContinent = new Map<string, string>();
  let world: string | undefined;
  let domestic = false;
  for (const category of gate.categories) {
    const words = tokenize(category).filter((t) => t !== BREAK);
    const text = words.join(' ');
    const continent = Object.entries(CONTINENT_NAMES).find(([name]) => ` ${text} `.includes(` ${name} `))?.[1];
    const named = placesIn(words).filter((p) => p.place.country !== '');
    if (DOMESTIC.some((d) => words.some((_, i) => d.every((w, k) => words[i + k] === w)))) domestic = true;
    else if (continent !== undefined && !words.some((w) => WORLD.has(w))) byContinent.set(continent, category);
    else if (words.some((w) => WORLD.has(w))) world = category;
    else if (named.length === 1) byCountry.set(named[0]!.place.country, category);
  }
  found = byContinent.size + byCountry.size > 0 && (world !== undefined || byContinent.size + byCountry.size >= 2) ? { byCountry, byContinent, world, domestic } : null;
  if (regionsOf.size > 1000) regionsOf.clear();
  regionsOf.set(key, found);
  return found;
}

/** How wide a category is: a country's (0), a continent's (1), the world's (2). */
type Width = 0 | 1 | 2;

export function byRegion(text: string, gate: MatchableQuestion): string | undefined {
  const r = regions(gate);
  if (r === null || gate.prompt === undefined) return undefined;
  const tokens = tokenize(text);
  if (text.includes('?') || unasserted(text, tokens, gate.prompt) !== undefined) return undefined;
  if (tokens.some((t) => NEGATOR_SET.has(t) || TURNS.has(t))) return undefined;
  if (UNCERTAIN.some((p) => tokens.some((_, i) => p.every((w, k) => tokens[i + k] === w)))) return undefined;
  const named = placesIn(tokens);
  if (named.length === 0 || named.some((p) => p.place.country === '')) return undefined;
  // Every word is a place's, a trip's or a filler; each clause with a place is a plain statement.
  const placed = new Set(named.flatMap((p) => Array.from({ length: p.end - p.at }, (_, k) => p.at + k)));
  if (!tokens.every((t, i) => t === BREAK || placed.has(i) || TRIP.has(t) || FILLERS.has(t))) return undefined;
  let start = 0;
  for (let i = 0; i <= tokens.length; i++) {
    if (i < tokens.length && tokens[i] !== BREAK) continue;
    const first = named.find((p) => p.at >= start && p.at < i);
    const clause = tokens.slice(start, i);
    if (first && !plainStatement(clause.join(' '), clause, first.at - start, gate.prompt, true)) return undefined;
    start = i + 1;
  }
  const countries = new Set(named.map((p) => p.place.country));
  if (r.domestic && countries.size < 2 && !named.some((p) => p.place.several)) return undefined;
  const held = named.map(({ place }) => where(place, r));
  if (held.some((h) => h === undefined)) return undefined;
  const width = Math.max(...held.map((h) => h!.width));
  // Two categories as wide (two continents with no category for the world): no one category holds the trip.
  const widest = new Set(held.filter((h) => h!.width === width).map((h) => h!.category));
  return widest.size === 1 ? [...widest][0] : undefined;
}

/** The narrowest category that holds a place. */
function where(place: Place, r: Regions): { category: string; width: Width } | undefined {
  const country = r.byCountry.get(place.country);
  if (country !== undefined) return { category: country, width: 0 };
  const continent = r.byContinent.get(place.continent);
  if (continent !== undefined) return { category: continent, width: 1 };
  return r.world !== undefined ? { category: r.world, width: 2 } : undefined;
}
