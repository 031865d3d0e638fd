/**
 * Issue 26, general knowledge from a maintained source (countries-list): a
 * question whose categories are regions, answered by the places a trip goes
 * to. Sentences written for these tests (in no corpus), on questions with no synonyms.
 */
import { describe, expect, it } from 'vitest';
import { extractOffline } from '../../src/extract/offline.js';
import { placesIn } from '../../src/extract/knowledge/places.js';
import { tokenize } from '../../src/extract/normalize.js';
import type { ExtractionQuestion } from '../../src/extract/types.js';

const cover: ExtractionQuestion = { key: 'cover', prompt: 'Where will the school group travel?', categories: ['Within my country', 'Europe', 'Rest of the world'] };
const shipping: ExtractionQuestion = { key: 'shipping', prompt: 'Where should we ship the parcel?', categories: ['UK', 'Europe', 'Worldwide'] };
const read = (text: string, at: ExtractionQuestion) => extractOffline({ text, key: at.key, allowModel: false, questions: [at] }).values[at.key]?.value;

describe('places, from countries-list and by hand', () => {
  it('knows countries, capitals, parts of countries and regions, and leaves out common words', () => {
    const countries = (text: string) => placesIn(tokenize(text)).map((p) => p.place.country);
    expect(countries('Lisbon, then the Azores, then Deutschland')).toEqual(['PT', 'PT', 'DE']);
    expect(countries('a road trip through Scotland')).toEqual(['GB']);
    expect(countries('us and Chad from work')).toEqual([]);
    // On two continents: read as nothing.
    expect(countries('Istanbul and Turkey')).toEqual([]);
  });
});

describe('a region, said by the places a trip goes to', () => {
  it('places in one continent are its category; on two, the rest of the world', () => {
    expect(read('Portugal and Spain', cover)).toBe('Europe');
    expect(read("we're flying to Lisbon and then Madrid", cover)).toBe('Europe');
    expect(read('Kenya and Tanzania', cover)).toBe('Rest of the world');
    expect(read('Portugal, then on to Brazil', cover)).toBe('Rest of the world');
    expect(read('Scandinavia', cover)).toBe('Europe');
  });

  it('one country may be the person\'s own: not read where a category is "my country"', () => {
    expect(read('Portugal', cover)).toBeUndefined();
    expect(read('Japan', cover)).toBeUndefined();
    // Where the categories name the country, it is that one's.
    expect(read('Manchester', shipping)).toBe('UK');
    expect(read('Japan', shipping)).toBe('Worldwide');
    expect(read('Berlin and Vienna', shipping)).toBe('Europe');
  });

  it('a denial, a hedge, a choice, another person, another time or irony: nothing is read', () => {
    expect(read('not Spain, Morocco and Tunisia', cover)).toBeUndefined();
    expect(read('probably Spain and Portugal', cover)).toBeUndefined();
    expect(read('Spain or Portugal', cover)).toBeUndefined();
    expect(read('my brother is going to Kenya and Tanzania', cover)).toBeUndefined();
    expect(read('we went to Spain and Portugal last year', cover)).toBeUndefined();
    expect(read('Spain and Portugal lol', cover)).toBeUndefined();
    expect(read('Spain and Portugal, if the budget allows', cover)).toBeUndefined();
  });
});
