/**
 * Phone number formats by country: the calling code, how many digits the
 * national number has after it (its "national significant number"), and the
 * trunk prefix dialled before it at home (the "0" of "020 7946 0958"). Only
 * lengths are checked: enough to refuse a number that is missing digits (a
 * forgotten area code), never a guess at whether the number exists.
 *
 * The lengths are the ranges numbering plans allow (ITU-T E.164 and the
 * national plans), kept generous where a plan has several lengths.
 */

export interface PhoneCountry {
  /** ISO 3166-1 alpha-2. */
  id: string;
  /** How a message names it: "outside the US". */
  place: string;
  /** How a message names its numbers: "a US phone number". */
  name: string;
  /** The calling code, digits only ("44"). */
  code: string;
  /** Digits after the calling code: fewest and most. */
  digits: readonly [number, number];
  /** Dialled before the national number at home: dropped when the number is stored with its calling code. */
  trunk?: string;
  /** A number as people there write it, for messages. */
  example: string;
}

export const PHONE_COUNTRIES = [
  { id: 'US', place: 'the US', name: 'a US', code: '1', digits: [10, 10], trunk: '1', example: '(555) 010-2233' },
  { id: 'CA', place: 'Canada', name: 'a Canadian', code: '1', digits: [10, 10], trunk: '1', example: '(555) 010-2233' },
  { id: 'GB', place: 'the UK', name: 'a UK', code: '44', digits: [9, 10], trunk: '0', example: '020 7946 0958' },
  { id: 'IE', place: 'Ireland', name: 'an Irish', code: '353', digits: [7, 9], trunk: '0', example: '01 234 5678' },
  { id: 'DE', place: 'Germany', name: 'a German', code: '49', digits: [6, 13], trunk: '0', example: '030 12345678' },
  { id: 'FR', place: 'France', name: 'a French', code: '33', digits: [9, 9], trunk: '0', example: '01 23 45 67 89' },
  { id: 'ES', place: 'Spain', name: 'a Spanish', code: '34', digits: [9, 9], example: '912 345 678' },
  { id: 'IT', place: 'Italy', name: 'an Italian', code: '39', digits: [6, 11], example: '06 1234 5678' },
  { id: 'NL', place: 'the Netherlands', name: 'a Dutch', code: '31', digits: [9, 9], trunk: '0', example: '020 123 4567' },
  { id: 'BE', place: 'Belgium', name: 'a Belgian', code: '32', digits: [8, 9], trunk: '0', example: '02 123 45 67' },
  { id: 'CH', place: 'Switzerland', name: 'a Swiss', code: '41', digits: [9, 9], trunk: '0', example: '044 123 45 67' },
  { id: 'AT', place: 'Austria', name: 'an Austrian', code: '43', digits: [7, 13], trunk: '0', example: '01 2345678' },
  { id: 'SE', place: 'Sweden', name: 'a Swedish', code: '46', digits: [6, 9], trunk: '0', example: '08 123 456 78' },
  { id: 'NO', place: 'Norway', name: 'a Norwegian', code: '47', digits: [8, 8], example: '22 12 34 56' },
  { id: 'DK', place: 'Denmark', name: 'a Danish', code: '45', digits: [8, 8], example: '32 12 34 56' },
  { id: 'FI', place: 'Finland', name: 'a Finnish', code: '358', digits: [6, 11], trunk: '0', example: '09 1234 5678' },
  { id: 'PL', place: 'Poland', name: 'a Polish', code: '48', digits: [9, 9], example: '12 345 67 89' },
  { id: 'PT', place: 'Portugal', name: 'a Portuguese', code: '351', digits: [9, 9], example: '212 345 678' },
  { id: 'AU', place: 'Australia', name: 'an Australian', code: '61', digits: [9, 9], trunk: '0', example: '02 1234 5678' },
  { id: 'NZ', place: 'New Zealand', name: 'a New Zealand', code: '64', digits: [8, 10], trunk: '0', example: '09 123 4567' },
  { id: 'IN', place: 'India', name: 'an Indian', code: '91', digits: [10, 10], trunk: '0', example: '98765 43210' },
  { id: 'JP', place: 'Japan', name: 'a Japanese', code: '81', digits: [9, 10], trunk: '0', example: '03 1234 5678' },
  { id: 'CN', place: 'China', name: 'a Chinese', code: '86', digits: [10, 11], trunk: '0', example: '010 1234 5678' },
  { id: 'BR', place: 'Brazil', name: 'a Brazilian', code: '55', digits: [10, 11], trunk: '0', example: '(11) 91234 5678' },
  { id: 'MX', place: 'Mexico', name: 'a Mexican', code: '52', digits: [10, 10], example: '55 1234 5678' },
  { id: 'ZA', place: 'South Africa', name: 'a South African', code: '27', digits: [9, 9], trunk: '0', example: '021 123 4567' },
  { id: 'SG', place: 'Singapore', name: 'a Singapore', code: '65', digits: [8, 8], example: '6123 4567' },
  { id: 'HK', place: 'Hong Kong', name: 'a Hong Kong', code: '852', digits: [8, 8], example: '2123 4567' },
] as const satisfies readonly PhoneCountry[];

export type PhoneCountryId = (typeof PHONE_COUNTRIES)[number]['id'];

/** The ids a flow may name (`answer.country`). */
export const PHONE_COUNTRY_IDS = PHONE_COUNTRIES.map((c) => c.id) as [PhoneCountryId, ...PhoneCountryId[]];

export function phoneCountry(id: string): PhoneCountry | undefined {
  return PHONE_COUNTRIES.find((c) => c.id === id.toUpperCase());
}

/**
 * The country a number in international form belongs to, by its calling
 * code (calling codes are prefix-free: at most one matches). Codes shared by
 * several countries (+1) give the first listed, whose lengths they share.
 */
export function countryOfInternational(digits: string): PhoneCountry | undefined {
  return PHONE_COUNTRIES.find((c) => digits.startsWith(c.code));
}

export type PhoneCheck = { ok: true; value: string } | { ok: false; message: string };

const range = ([min, max]: readonly [number, number]) => (min === max ? `${min}` : `${min} to ${max}`);
const outside = (c: PhoneCountry) => `For a number outside ${c.place}, start with + and the country code.`;

/**
 * A phone number as the parser read it (digits, "+" first when written) in
 * the form it is stored: with its calling code when the country is known
 * (written with "+", "00" or "011" and a calling code of the table, or
 * national with `home` given), refused when it has too few or too many
 * digits for that country. Other numbers keep the general E.164 bounds
 * (7 to 15 digits) and are stored as written.
 */
export function checkPhoneNumber(number: string, home?: string): PhoneCheck {
  const country = home === undefined ? undefined : phoneCountry(home);
  let digits = number.replace(/\D/g, '');
  let international = number.startsWith('+');
  // The international call prefix written instead of "+": 00 in most countries, 011 from North America.
  if (!international && country !== undefined) {
    const prefix = country.code === '1' ? '011' : '00';
    if (digits.startsWith(prefix)) {
      digits = digits.slice(prefix.length);
      international = true;
    }
  }
  if (international) {
    const abroad = countryOfInternational(digits);
    if (abroad === undefined) return general(`+${digits}`);
    let national = digits.slice(abroad.code.length);
    // "+44 (0)20 7946 0958": the trunk prefix written after the calling code.
    if (abroad.trunk === '0' && national.startsWith('0') && national.length - 1 >= abroad.digits[0]) national = national.slice(1);
    const [min, max] = abroad.digits;
    if (national.length < min || national.length > max)
      return {
        ok: false,
        message: `That number has ${national.length} digit${national.length === 1 ? '' : 's'} after +${abroad.code}, but ${abroad.name} phone number has ${range(abroad.digits)}. Please check it.`,
      };
    return { ok: true, value: `+${abroad.code}${national}` };
  }
  if (country === undefined) return general(number);
  const national = country.trunk !== undefined && digits.startsWith(country.trunk) ? digits.slice(country.trunk.length) : digits;
  const [min, max] = country.digits;
  if (national.length < min || national.length > max) {
    const few = national.length < min;
    return {
      ok: false,
      message:
        `That number has ${national.length} digit${national.length === 1 ? '' : 's'}, but ${country.name} phone number has ${range(country.digits)}` +
        `${few && country.code === '1' ? ' with the area code' : ''}, such as ${country.example}. ${few ? outside(country) : 'Please check it.'}`,
    };
  }
  return { ok: true, value: `+${country.code}${national}` };
}

/** Any number: E.164 allows 7 to 15 digits. */
function general(number: string): PhoneCheck {
  const count = number.replace(/\D/g, '').length;
  if (count < 7) return { ok: false, message: 'That phone number looks too short. Please include the area code.' };
  if (count > 15) return { ok: false, message: 'That phone number looks too long. Please check it.' };
  return { ok: true, value: number };
}
