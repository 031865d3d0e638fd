/**
 * A person's name read out of a message (string answers with `format:
 * "person_name"`): greetings, introductions and sign-offs dropped, one-case
 * names capitalized, and an abstention (a message saying what to write)
 * whenever the answer says more than a name.
 */
import { describe, expect, it } from 'vitest';
import { parsePersonName } from '../../src/extract/person-name.js';
import { parseTypedAnswer } from '../../src/extract/parse-typed.js';

describe('parsePersonName', () => {
  it.each([
    ["hi, I'm jane doe", 'Jane Doe'],
    ['Hello! My name is Jane Doe.', 'Jane Doe'],
    ['hey there, this is jean de la fontaine', 'Jean de la Fontaine'],
    ["good morning, it's o'brien here", "O'Brien"],
    ['JANE DOE', 'Jane Doe'],
    ['mary-jane watson, thanks', 'Mary-Jane Watson'],
    ['Ludwig van Beethoven', 'Ludwig van Beethoven'], // capitals as written are kept
    ['McDonald', 'McDonald'],
    ['you can call me Sam', 'Sam'],
    ['Dr. J. R. Smith', 'Dr. J. R. Smith'],
    ['name: José Álvarez', 'José Álvarez'],
    ['Will Smith', 'Will Smith'], // a word that is also a name
    ['\u2018Ana\u2019', 'Ana'],
  ])('%j → %j', (text, name) => {
    const read = parsePersonName(text);
    expect(read).toMatchObject({ ok: true, value: name });
  });

  it('is sure (1) of a name written alone and as it is kept, a little less when something was dropped or capitalized', () => {
    expect(parsePersonName('Jane Doe')).toEqual({ ok: true, value: 'Jane Doe', confidence: 1 });
    expect(parsePersonName('jane doe')).toEqual({ ok: true, value: 'Jane Doe', confidence: 0.9 });
    expect(parsePersonName("hi, I'm Jane Doe")).toEqual({ ok: true, value: 'Jane Doe', confidence: 0.9 });
  });

  it.each([
    ['hi', /Please write just your name/],
    ["hi, I'm", /Please write just your name/],
    ['I need help', /Please write just your name/],
    ['jane and john', /Please write just your name/],
    ['not telling', /Please write just your name/],
    ['what is this for?', /reads like a question/],
    ['jane@example.com', /does not look like a name/],
    ['555 010 2233', /does not look like a name/],
    ['R2D2', /does not look like a name/],
    ['**jane**', /Jane|name/], // stars around the name are dropped (see below)
    ['my name is jane and I have a question about my order', /longer than a name/],
    ['', /did not get an answer/],
  ])('refuses or reads %j', (text, message) => {
    const read = parsePersonName(text);
    if (read.ok) expect(read.value).toMatch(message);
    else expect(read.message).toMatch(message);
  });

  it('is what parseTypedAnswer reads for a string answer with format person_name (and only then)', () => {
    expect(parseTypedAnswer('string', "hi, I'm jane doe", { format: 'person_name' })).toMatchObject({ ok: true, value: 'Jane Doe' });
    expect(parseTypedAnswer('string', "hi, I'm jane doe")).toMatchObject({ ok: true, value: "hi, I'm jane doe" });
  });
});
