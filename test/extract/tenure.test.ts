/**
 * Issue 26, general knowledge: a question whether the person owns their home,
 * answered by its tenure ("it's ours", "we rent"), with no author synonyms.
 * Sentences written for these tests (in no corpus).
 */
import { describe, expect, it } from 'vitest';
import { extractOffline } from '../../src/extract/offline.js';
import type { ExtractionQuestion } from '../../src/extract/types.js';

const owns: ExtractionQuestion = { key: 'owns', prompt: 'Do you own the flat the heat pump would heat?', categories: ['Yes', 'No'] };
const read = (text: string, at: ExtractionQuestion = owns) => extractOffline({ text, key: at.key, allowModel: false, questions: [at] }).values[at.key]?.value;

describe('owning a home, said by its tenure', () => {
  it('owning is Yes, renting is No', () => {
    expect(read("it's ours")).toBe('Yes');
    expect(read('we are the homeowners')).toBe('Yes');
    expect(read("we've got a mortgage on it")).toBe('Yes');
    expect(read("it's my own place")).toBe('Yes');
    expect(read('we rent')).toBe('No');
    expect(read("I'm a tenant")).toBe('No');
    expect(read("it's a council flat")).toBe('No');
    expect(read('wir wohnen zur Miete')).toBe('No');
    expect(read('es de alquiler')).toBe('No');
  });

  it('every clause that says a tenure agrees, and a denied renting only agrees', () => {
    expect(read("we're not renting, it's ours")).toBe('Yes');
    expect(read("not ours, we rent")).toBe('No');
    expect(read("we're not renting")).toBeUndefined();
    expect(read("I don't rent it, but it isn't mine either")).toBeUndefined();
    // A clause that says something else may turn what the tenure said: only a message of its tenure alone is read.
    expect(read("we have a mortgage, but the deeds are in my ex's name")).toBeUndefined();
    expect(read("it's ours, the bank has a say in it")).toBeUndefined();
    expect(read("it's ours, thanks")).toBe('Yes');
  });

  it("someone else's home, another time, letting, doubt or irony: nothing is read", () => {
    expect(read('my parents own their flat outright')).toBeUndefined();
    expect(read('my brother rents')).toBeUndefined();
    expect(read('we used to rent')).toBeUndefined();
    expect(read('we rent it out to students')).toBeUndefined();
    expect(read('we have a lodger')).toBeUndefined();
    expect(read('we have a mortgage I think')).toBeUndefined();
    expect(read('me, a homeowner? in this economy? 😂')).toBeUndefined();
    expect(read('lol as if, we rent')).toBeUndefined();
  });

  it('only at a question of owning a home', () => {
    const car: ExtractionQuestion = { key: 'car', prompt: 'Do you own a car?', categories: ['Yes', 'No'] };
    expect(read('we rent', car)).toBeUndefined();
    const pets: ExtractionQuestion = { key: 'pets', prompt: 'Do you have pets at home?', categories: ['Yes', 'No'] };
    expect(read("it's ours", pets)).toBeUndefined();
  });
});
