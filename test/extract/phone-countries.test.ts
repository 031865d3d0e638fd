/**
 * Phone numbers checked for their country's length: from "+" and a calling
 * code, or from the question's `country` for a number written without it;
 * stored with the calling code; a number too short or too long refused with
 * a message that says what is expected.
 */
import { describe, expect, it } from 'vitest';
import { parseTypedAnswer } from '../../src/extract/parse-typed.js';
import { PHONE_COUNTRIES, checkPhoneNumber } from '../../src/extract/phone-countries.js';

const phone = (text: string, country?: string) => parseTypedAnswer('phone', text, country === undefined ? {} : { country });

describe('phone numbers and their country', () => {
  it.each([
    ['(555) 010-2233', 'US', '+15550102233'],
    ['1 555 010 2233', 'US', '+15550102233'], // the trunk prefix
    ['011 44 20 7946 0958', 'US', '+442079460958'], // the international prefix from North America
    ['020 7946 0958', 'GB', '+442079460958'],
    ['0044 20 7946 0958', 'GB', '+442079460958'],
    ['030 12345678', 'DE', '+493012345678'],
    ['+44 (0)20 7946 0958', undefined, '+442079460958'], // the trunk "0" written after the calling code
    ['+33 1 23 45 67 89', undefined, '+33123456789'],
    ['+1 555 010 2233', 'GB', '+15550102233'], // "+" and a calling code win over the question's country
    ['+999 1234 5678', undefined, '+99912345678'], // a calling code not in the table: the general bounds
  ])('%j (%s) → %j', (text, country, value) => {
    expect(phone(text, country)).toMatchObject({ ok: true, value });
  });

  it('refuses a number too short for its country, saying how many digits it has and how many are expected', () => {
    expect(phone('555-0102', 'US')).toEqual({
      ok: false,
      found: true,
      message: 'That number has 7 digits, but a US phone number has 10 with the area code, such as (555) 010-2233. For a number outside the US, start with + and the country code.',
    });
    expect(phone('+44 20 7946')).toEqual({ ok: false, found: true, message: 'That number has 6 digits after +44, but a UK phone number has 9 to 10. Please check it.' });
    expect(phone('0151 23456789012', 'DE')).toMatchObject({ ok: false, message: /^That number has 14 digits, but a German phone number has 6 to 13, such as 030 12345678\. Please check it\.$/ });
    // Without a country and without "+": the general bounds, as before.
    expect(phone('555-0102')).toMatchObject({ ok: true, value: '5550102' });
    expect(phone('12345')).toMatchObject({ ok: false, message: /too short/ });
  });

  it('has a calling code, digit counts and an example for every country a flow may name; calling codes are prefix-free', () => {
    for (const c of PHONE_COUNTRIES) {
      expect(c.digits[0]).toBeLessThanOrEqual(c.digits[1]);
      const exampleDigits = c.example.replace(/\D/g, '');
      expect(checkPhoneNumber(exampleDigits, c.id), `${c.id}: ${c.example}`).toMatchObject({ ok: true });
      for (const other of PHONE_COUNTRIES)
        if (other.code !== c.code) expect(other.code.startsWith(c.code), `${c.id} ${other.id}`).toBe(false);
    }
  });
});
