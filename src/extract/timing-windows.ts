import { BREAK, tokenize } from './normalize.js';
import { deniedInClause } from './assertion.js';
import { SMALL_NUMBERS } from './knowledge/number-words.js';

/**
 * Timing categories are windows of time (issue 26: general knowledge beyond a flow author's synonyms).
 *
 * A question "When should the cover start?" with the categories Today / Within a month / Later asks for a
 * window; a person answers with a date ("from the first of december", "the 12th", "in three weeks", "mid
 * january", "not before the new year"). Each category's window is derived from its name, relative to today
 * and to the other categories (tiers: "Within a month" after "Today" is the days after today up to a month;
 * "Later" is after every other window). The date the person names is read into the days it may mean, and the
 * category whose window holds all of them is the answer; any doubt abstains: a category whose name gives no
 * window ("Flexible", "No rush" are never inferred from a date, and one not understood leaves the question
 * unread), a date on no window or on two, a day name that may be this week or the next.
 *
 * Days are counted from today (0), calendar dates in UTC, as the typed reader's are.
 */

/** Days from today, inclusive; `to` may be Infinity. */
export interface DayRange {
  from: number;
  to: number;
}

const DAY_MS = 86_400_000;
const utcDay = (d: Date) => Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
const daysTo = (today: Date, y: number, m: number, d: number) => Math.round((Date.UTC(y, m, d) - utcDay(today)) / DAY_MS);
/** Monday 0 ... Sunday 6. */
const weekday = (today: Date) => (today.getUTCDay() + 6) % 7;
const endOfMonth = (y: number, m: number) => new Date(Date.UTC(y, m + 1, 0)).getUTCDate();

const SMALL: Readonly<Record<string, number>> = {
  a: 1, an: 1, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, twelve: 12, couple: 2,
};
const count = (w: string | undefined) => (w === undefined ? undefined : /^\d{1,2}$/u.test(w) ? Number(w) : SMALL[w]);

/** Categories that name no window: never inferred from a date (their words read them, if any do). */
const NO_WINDOW = /^(?:no rush|not sure|unsure|flexible|any ?time|whenever|i do not know|do not know|undecided|not urgent|no hurry|depends|other)$|^(?:never|not yet|no|none)\b/u;

/**
 * A part of today, where a question tells them apart ("Right away" / "Later today", "In the last hour" /
 * "Earlier today"): `now` is the hour around now, `rest` the rest of the day (after it for a question about
 * what is to come, before it for one about what happened).
 */
type DayPart = 'now' | 'rest';
interface Window extends DayRange {
  part?: DayPart;
}

/** The window a timing category's name gives, before tiers (undefined: none). */
function nameWindow(name: string, today: Date): Window | 'later' | 'earlier' | undefined {
  const n = tokenize(name).filter((t) => t !== BREAK).join(' ');
  const dow = weekday(today);
  const y = today.getUTCFullYear();
  const m = today.getUTCMonth();
  if (/^(?:now|right now|immediately|right away|straight away|as soon as possible|asap|at once|(?:in|within) the (?:last|past) hour|within the hour|just now)$/u.test(n)) return { from: 0, to: 0, part: 'now' };
  if (/^(?:later today|later on today|later in the day|this evening|tonight|this afternoon|earlier today|this morning)$/u.test(n)) return { from: 0, to: 0, part: 'rest' };
  if (/^(?:today|this day)$/u.test(n)) return { from: 0, to: 0 };
  if (n === 'tomorrow') return { from: 1, to: 1 };
  if (n === 'this week') return { from: 0, to: 6 - dow };
  if (n === 'next week') return { from: 7 - dow, to: 13 - dow };
  if (n === 'this weekend') return { from: Math.max(0, 5 - dow), to: 6 - dow };
  if (n === 'this month') return { from: 0, to: daysTo(today, y, m, endOfMonth(y, m)) };
  if (n === 'next month') return { from: daysTo(today, y, m + 1, 1), to: daysTo(today, y, m + 1, endOfMonth(y, m + 1)) };
  if (/^(?:later|later on|after that|some time later|in the future|not yet|later than that)$/u.test(n)) return 'later';
  // "Next week or later", "Tomorrow or later": that window, and every day after it.
  const orLater = /^(.+) or (?:later|after|beyond)$/u.exec(n);
  if (orLater) {
    const w = nameWindow(orLater[1]!, today);
    return typeof w === 'object' ? { from: w.from, to: Infinity } : undefined;
  }
  // "Later in December", "Later this month": the rest of that month (after the windows before it, as tiers).
  const laterIn = /^later (?:in|this) (\p{L}+)$/u.exec(n);
  if (laterIn) {
    const month = laterIn[1] === 'month' ? m : MONTHS[laterIn[1]!];
    if (month !== undefined) return monthRange(today, month);
  }
  // "In January", "During March", "January": that month (the next one, for what is to come).
  const inMonth = /^(?:(?:in|during) )?(\p{L}+)$/u.exec(n);
  if (inMonth && MONTHS[inMonth[1]!] !== undefined) return monthRange(today, MONTHS[inMonth[1]!]!);
  // "In the new year", "Next year", "After new year": from the first of January on.
  if (/^(?:in the new year|next year|after (?:the )?new year|from january|in january or later)$/u.test(n)) return { from: daysTo(today, y + 1, 0, 1), to: Infinity };
  const within = /^(?:within|in the next|in|inside|less than)(?: the next)? (a|an|one|two|three|four|five|six|seven|ten|twelve|couple of|\d{1,2}) (day|days|week|weeks|fortnight|month|months)$/u.exec(n);
  if (within) {
    const k = count(within[1]!.replace(' of', ''))!;
    const unit = within[2]!;
    if (unit.startsWith('day')) return { from: 0, to: k };
    if (unit.startsWith('week')) return { from: 0, to: 7 * k };
    if (unit === 'fortnight') return { from: 0, to: 14 * k };
    return { from: 0, to: daysTo(today, y, m + k, today.getUTCDate()) };
  }
  if (/^within a fortnight$/u.test(n)) return { from: 0, to: 14 };
  // The past, for a question about when something happened: "Yesterday", "In the last 7 days", "More than a week ago".
  if (n === 'yesterday') return { from: -1, to: -1 };
  if (n === 'last week') return { from: -dow - 7, to: -dow - 1 };
  if (n === 'earlier this week') return { from: -dow, to: -1 };
  const past = /^(?:in|within|over|during) the (?:last|past) (?:(a|an|one|two|three|four|five|six|seven|ten|twelve|couple of|few|\d{1,2}) )?(day|days|week|weeks|fortnight|month|months|year)$/u.exec(n);
  if (past) {
    const k = past[1] === undefined ? 1 : past[1] === 'few' ? 3 : count(past[1].replace(' of', ''))!;
    return { from: -k * UNIT_DAYS[past[2]!.replace(/s$/u, '')]!, to: 0 };
  }
  // "1 to 12 months ago", "2-4 weeks ago": a span counted back.
  const span = /^(a|an|one|two|three|four|five|six|seven|ten|twelve|\d{1,2}) (?:to|and) (one|two|three|four|five|six|seven|ten|twelve|\d{1,2}) (day|days|week|weeks|month|months|year|years) ago$/u.exec(n);
  if (span) {
    const unit = UNIT_DAYS[span[3]!.replace(/s$/u, '')]!;
    return { from: -count(span[2])! * unit, to: -count(span[1])! * unit };
  }
  // "Over a year ago": before that; "Longer ago": before every other window.
  const over = /^(?:more than|over|longer than|earlier than) (a|an|one|two|three|four|five|six|ten|twelve|\d{1,2}) (day|days|week|weeks|fortnight|month|months|year|years) ago$/u.exec(n);
  if (over) return { from: -Infinity, to: -count(over[1])! * UNIT_DAYS[over[2]!.replace(/s$/u, '')]! };
  if (/^(?:earlier|before that|longer ago)$/u.test(n)) return 'earlier';
  return undefined;
}
const UNIT_DAYS: Readonly<Record<string, number>> = { day: 1, week: 7, fortnight: 14, month: 30, year: 365 };

/**
 * The categories' windows, as tiers (a window that starts where an earlier one does starts after it), or
 * undefined when some category is neither a window nor a name that gives none, or fewer than two give one.
 */
export function categoryWindows(categories: readonly string[], today: Date): Map<string, DayRange> | undefined {
  return windowsOf(categories, today)?.windows;
}

/**
 * The categories' windows, and whether they count in half days: where a category is the rest of today ("Later
 * today", "Earlier today"), every day is two halves, the hour around now and the rest (day d is 2d and 2d + 1),
 * so that "tonight" and "asap" fall apart and a bare "today" holds both.
 */
function windowsOf(categories: readonly string[], today: Date): { windows: Map<string, DayRange>; halfDays: boolean; past: boolean } | undefined {
  const raw = new Map<string, Window | 'later' | 'earlier'>();
  for (const c of categories) {
    const w = nameWindow(c, today);
    if (w !== undefined) raw.set(c, w);
    else if (!NO_WINDOW.test(tokenize(c).filter((t) => t !== BREAK).join(' '))) return undefined;
  }
  if (raw.size < 2) return undefined;
  // The past ("Today", "In the last 7 days", "More than a week ago"): tiers counted back from today. A question
  // with windows on both sides of today is read from no date.
  const past = [...raw.values()].some((w) => w === 'earlier' || (typeof w === 'object' && w.from < 0));
  const halfDays = [...raw.values()].some((w) => typeof w === 'object' && w.part === 'rest');
  if (halfDays) for (const [c, w] of raw) if (typeof w === 'object') raw.set(c, inHalfDays(w, past));
  const ranges = [...raw].filter((e): e is [string, Window] => typeof e[1] === 'object');
  if (ranges.length === 0) return undefined;
  const windows = tiers(raw, ranges, past, halfDays ? 1 : 0);
  return windows && { windows, halfDays, past };
}

/** A window in half days (see windowsOf): its part of today, or both halves of each of its days. */
function inHalfDays(w: Window, past: boolean): DayRange {
  if (w.part !== undefined) {
    const half = (w.part === 'now') === past ? 1 : 0;
    return { from: half, to: half };
  }
  return { from: 2 * w.from, to: 2 * w.to + 1 };
}

/** Windows as tiers: one that starts where an earlier one does starts after it (undefined: one is left empty). */
function tiers(raw: ReadonlyMap<string, Window | 'later' | 'earlier'>, ranges: [string, DayRange][], past: boolean, now: number): Map<string, DayRange> | undefined {
  const out = new Map<string, DayRange>();
  if (past) {
    if (ranges.some(([, r]) => r.to > now) || [...raw.values()].includes('later')) return undefined;
    let reached = now + 1;
    for (const [c, r] of ranges.sort((a, b) => b[1].from - a[1].from || b[1].to - a[1].to)) {
      const to = r.to >= reached ? reached - 1 : r.to;
      if (to < r.from) return undefined;
      out.set(c, { from: r.from, to });
      reached = Math.min(reached, r.from);
    }
    for (const [c, w] of raw) if (w === 'earlier') out.set(c, { from: -Infinity, to: reached - 1 });
    return out;
  }
  let reached = -1;
  for (const [c, r] of ranges.sort((a, b) => a[1].to - b[1].to || a[1].from - b[1].from)) {
    const from = r.from <= reached ? reached + 1 : r.from;
    if (from > r.to) return undefined;
    out.set(c, { from, to: r.to });
    reached = Math.max(reached, r.to);
  }
  for (const [c, w] of raw) if (w === 'later') out.set(c, { from: reached + 1, to: Infinity });
  return out;
}

const MONTHS: Readonly<Record<string, number>> = {
  january: 0, jan: 0, february: 1, feb: 1, march: 2, mar: 2, april: 3, apr: 3, may: 4, june: 5, jun: 5, july: 6, jul: 6, august: 7,
  aug: 7, september: 8, sep: 8, sept: 8, october: 9, oct: 9, november: 10, nov: 10, december: 11, dec: 11,
  // The major European languages.
  enero: 0, febrero: 1, marzo: 2, abril: 3, mayo: 4, junio: 5, julio: 6, agosto: 7, septiembre: 8, octubre: 9, noviembre: 10, diciembre: 11,
  januar: 0, februar: 1, marz: 2, juni: 5, juli: 6, oktober: 9, dezember: 11,
  janvier: 0, fevrier: 1, mars: 2, avril: 3, mai: 4, juin: 5, juillet: 6, aout: 7, septembre: 8, octobre: 9, novembre: 10, decembre: 11,
  gennaio: 0, febbraio: 1, aprile: 3, maggio: 4, giugno: 5, luglio: 6, settembre: 8, ottobre: 9, dicembre: 11,
  janeiro: 0, fevereiro: 1, maio: 4, junho: 5, julho: 6, setembro: 8, outubro: 9, novembro: 10, dezembro: 11,
  januari: 0, februari: 1, maart: 2, mei: 4, augustus: 7,
};
const WEEKDAYS: Readonly<Record<string, number>> = { monday: 0, tuesday: 1, wednesday: 2, thursday: 3, friday: 4, saturday: 5, sunday: 6 };
const ORDINAL = /^(\d{1,2})(?:st|nd|rd|th)?$/u;
const ORDINAL_WORDS: Readonly<Record<string, number>> = {
  first: 1, second: 2, third: 3, fourth: 4, fifth: 5, sixth: 6, seventh: 7, eighth: 8, ninth: 9, tenth: 10, eleventh: 11, twelfth: 12,
  fifteenth: 15, twentieth: 20,
};
const dayNumber = (w: string | undefined) => {
  if (w === undefined) return undefined;
  const m = ORDINAL.exec(w);
  const n = m ? Number(m[1]) : ORDINAL_WORDS[w];
  return n !== undefined && n >= 1 && n <= 31 ? n : undefined;
};

/** A date the words at `i` name: the days it may mean, and how many words it takes. */
interface Mention {
  start: number;
  end: number;
  range: Window;
}

/**
 * The next (y, m) on or after this month whose day `d` is today or later; the next year's month if it has passed.
 * Looking back (`past`), the last one on or before today.
 */
function monthDay(today: Date, month: number, d: number, past = false): number {
  const y = today.getUTCFullYear();
  const days = daysTo(today, y, month, d);
  if (past) return days <= 0 ? days : daysTo(today, y - 1, month, d);
  return days >= 0 ? days : daysTo(today, y + 1, month, d);
}
function monthRange(today: Date, month: number, part?: string, past = false): DayRange {
  const y0 = today.getUTCFullYear();
  const y = past ? (month > today.getUTCMonth() ? y0 - 1 : y0) : month < today.getUTCMonth() ? y0 + 1 : y0;
  const last = endOfMonth(y, month);
  const [a, b] = part === 'early' || part === 'beginning' || part === 'start' ? [1, 10] : part === 'mid' || part === 'middle' ? [11, 20] : part === 'end' || part === 'late' ? [21, last] : [1, last];
  if (past) return { from: daysTo(today, y, month, a), to: Math.min(0, daysTo(today, y, month, b)) };
  return { from: Math.max(0, daysTo(today, y, month, a)), to: daysTo(today, y, month, b) };
}

/** Yesterday, and the words for it in the major languages ("ieri", "gestern", "hier", "ayer"). */
const YESTERDAY = new Set(['yesterday', 'ieri', 'gestern', 'hier', 'ayer', 'gisteren', 'ontem', 'wczoraj', 'igar']);
/** Units of a time ago, in days ("3 weeks ago", "il y a trois semaines", "hace dos dias", "vor zwei Wochen"). */
const AGO_UNITS: Readonly<Record<string, number>> = {
  day: 1, days: 1, week: 7, weeks: 7, fortnight: 14, fortnights: 14, month: 30, months: 30,
  jours: 1, jour: 1, semaines: 7, semaine: 7, mois: 30, dias: 1, dia: 1, semanas: 7, semana: 7, meses: 30, mes: 30,
  tage: 1, tagen: 1, tag: 1, wochen: 7, woche: 7, monaten: 30, monat: 30, giorni: 1, giorno: 1, settimane: 7, settimana: 7, mesi: 30,
  dagen: 1, dag: 1, weken: 7, maanden: 30,
  year: 365, years: 365, ans: 365, anos: 365, jahre: 365, jahren: 365, jahr: 365, anni: 365, jaar: 365, jaren: 365,
};
/** Words that open a time ago in other languages: "il y a", "hace", "vor", "fa" closes it ("tre settimane fa"). */
const AGO_BEFORE = new Set(['hace', 'vor', 'ha']);
/** "One" after such an opener ("hace un mes", "vor einem Monat", "il y a une semaine"). */
const ONE = new Set(['un', 'una', 'uno', 'une', 'ein', 'eine', 'einem', 'einer']);

/**
 * A time the words at `i` name looking back, for a question about when something happened: "yesterday", "last
 * night", "3 days ago", "a fortnight ago", "last week", "last month". Undefined where they name none.
 */
function pastMentionAt(tokens: readonly string[], i: number, today: Date): Mention | undefined {
  const t = tokens[i]!;
  const dow = weekday(today);
  if (YESTERDAY.has(t)) return { start: i, end: i + 1, range: { from: -1, to: -1 } };
  if (t === 'last' && tokens[i + 1] === 'night') return { start: i, end: i + 2, range: { from: -1, to: 0 } };
  if ((t === 'this' && (tokens[i + 1] === 'morning' || tokens[i + 1] === 'afternoon')) || (t === 'earlier' && tokens[i + 1] === 'today')) return { start: i, end: i + 2, range: { from: 0, to: 0, part: 'rest' } };
  if (t === 'last' && tokens[i + 1] === 'week') return { start: i, end: i + 2, range: { from: -dow - 7, to: -dow - 1 } };
  if (t === 'last' && tokens[i + 1] === 'month') {
    const y = today.getUTCFullYear();
    const m = today.getUTCMonth();
    return { start: i, end: i + 2, range: { from: daysTo(today, y, m - 1, 1), to: daysTo(today, y, m - 1, endOfMonth(y, m - 1 < 0 ? 11 : m - 1)) } };
  }
  // "3 weeks ago", "a couple of days ago", "a few weeks ago", "il y a trois semaines", "tre settimane fa".
  let k = i;
  const opener = AGO_BEFORE.has(t) ? 1 : t === 'il' && tokens[i + 1] === 'y' && tokens[i + 2] === 'a' ? 3 : 0;
  k += opener;
  let lo: number | undefined;
  let hi: number | undefined;
  if (tokens[k] === 'a' && tokens[k + 1] === 'couple' && tokens[k + 2] === 'of') [lo, hi, k] = [2, 2, k + 3];
  else if (tokens[k] === 'a' && tokens[k + 1] === 'few') [lo, hi, k] = [2, 4, k + 2];
  else if (tokens[k] === 'a' || tokens[k] === 'an' || (opener > 0 && ONE.has(tokens[k] ?? ''))) [lo, hi, k] = [1, 1, k + 1];
  else {
    const n = count(tokens[k]) ?? SMALL_NUMBERS.get(tokens[k] ?? '');
    if (n !== undefined) [lo, hi, k] = [n, n, k + 1];
  }
  // "40 minutes ago" is the hour around now; "3 hours ago" earlier today; "an hour ago" either.
  if (lo !== undefined && hi !== undefined && /^(?:minutes?|mins?|hours?|hrs?)$/u.test(tokens[k] ?? '') && tokens[k + 1] === 'ago') {
    const part: DayPart | undefined = tokens[k]!.startsWith('m') ? 'now' : lo >= 2 ? 'rest' : undefined;
    return { start: i, end: k + 2, range: { from: 0, to: 0, part } };
  }
  const unit = AGO_UNITS[tokens[k] ?? ''];
  if (lo === undefined || hi === undefined || unit === undefined) return undefined;
  const closed = opener > 0 || tokens[k + 1] === 'ago' || tokens[k + 1] === 'fa';
  if (!closed) return undefined;
  const end = opener > 0 ? k + 1 : k + 2;
  // (A month is not exact: "2 months ago" is any day of about that month.)
  const slack = unit >= 365 ? 120 : unit >= 30 ? 15 : unit >= 7 ? 3 : 0;
  return { start: i, end, range: { from: -hi * unit - slack, to: Math.min(0, -lo * unit + slack) } };
}

/** The dates the tokens name (at most a few words each); looking back from today where `past`. */
function mentionsIn(tokens: readonly string[], today: Date, past = false): Mention[] {
  const out: Mention[] = [];
  const dow = weekday(today);
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    const next = tokens[i + 1];
    if (past) {
      const back = pastMentionAt(tokens, i, today);
      if (back) {
        out.push(back);
        i = back.end - 1;
        continue;
      }
    }
    const relative = relativeMentionAt(tokens, i, today, past);
    if (relative) {
      out.push(relative);
      i = relative.end - 1;
      continue;
    }
    // "the 1st of december", "1 dec", "12th december"
    const d = dayNumber(t);
    if (d !== undefined) {
      const k = next === 'of' ? i + 2 : i + 1;
      const month = MONTHS[tokens[k] ?? ''];
      // (Looking back, a day of this year still to come, "the 3rd of december" on the 27th of november, is no past.)
      if (month !== undefined && past && daysTo(today, today.getUTCFullYear(), month, d) > 0) {
        i = k;
        continue;
      }
      if (month !== undefined) {
        const day = monthDay(today, month, d, past);
        out.push({ start: i, end: k + 1, range: { from: day, to: day } });
        i = k;
        continue;
      }
      // "the 12th", "on the 2nd": the next such day (this month, or the next).
      if (tokens[i - 1] === 'the' && /\D/u.test(t)) {
        const y = today.getUTCFullYear();
        const m = today.getUTCMonth();
        const thisMonth = daysTo(today, y, m, d);
        const day = past ? (thisMonth <= 0 ? thisMonth : daysTo(today, y, m - 1, d)) : thisMonth >= 0 && d <= endOfMonth(y, m) ? thisMonth : daysTo(today, y, m + 1, d);
        out.push({ start: i, end: i + 1, range: { from: day, to: day } });
        continue;
      }
    }
    const month = MONTHS[t];
    if (month !== undefined && t !== 'may' && t !== 'mar' && t !== 'mai') {
      // "december 1st", "jan 3"
      const after = dayNumber(next);
      if (after !== undefined && past && daysTo(today, today.getUTCFullYear(), month, after) > 0) {
        i++;
        continue;
      }
      if (after !== undefined) {
        const day = monthDay(today, month, after, past);
        out.push({ start: i, end: i + 2, range: { from: day, to: day } });
        i++;
        continue;
      }
      // "january", "early january", "mid january", "the end of january"
      const part = ['early', 'beginning', 'start', 'mid', 'middle', 'late', 'end'].find((p) => tokens.slice(Math.max(0, i - 3), i).includes(p));
      out.push({ start: i, end: i + 1, range: monthRange(today, month, part, past) });
      continue;
    }
    // Weekdays: "next thursday" said on a Monday may be this coming one or the one after; a bare one is the next, unless it is today's.
    const wd = WEEKDAYS[t];
    // Looking back: "on tuesday" is the last one ("last tuesday" may be the one before it); today's is today or a week ago.
    if (wd !== undefined && past) {
      const back = (dow - wd + 7) % 7;
      const from = tokens[i - 1] === 'last' ? i - 1 : i;
      if (back === 0) out.push({ start: from, end: i + 1, range: { from: -7, to: tokens[i - 1] === 'last' ? -7 : 0 } });
      else out.push({ start: from, end: i + 1, range: { from: tokens[i - 1] === 'last' ? -back - 7 : -back, to: -back } });
      continue;
    }
    if (wd !== undefined) {
      const ahead = (wd - dow + 7) % 7;
      // ("Next monday" said on a Saturday is the coming one: it is in the next week already.)
      if (tokens[i - 1] === 'next' && ahead > 6 - dow) out.push({ start: i - 1, end: i + 1, range: { from: ahead, to: ahead } });
      else if (tokens[i - 1] === 'next') out.push({ start: i - 1, end: i + 1, range: { from: ahead === 0 ? 7 : ahead, to: ahead + 7 } });
      else if (ahead === 0) out.push({ start: i, end: i + 1, range: { from: 0, to: 7 } });
      else out.push({ start: i, end: i + 1, range: { from: ahead, to: ahead } });
      continue;
    }
    // "in 10 days", "in three weeks", "in a fortnight", "in a couple of months", "in a few weeks"
    if (t === 'in' || t === 'within') {
      let k = i + 1;
      if (tokens[k] === 'about' || tokens[k] === 'around' || tokens[k] === 'roughly') k++;
      let lo: number | undefined;
      let hi: number | undefined;
      if (tokens[k] === 'a' && tokens[k + 1] === 'couple' && tokens[k + 2] === 'of') [lo, hi, k] = [2, 2, k + 3];
      else if (tokens[k] === 'a' && tokens[k + 1] === 'few') [lo, hi, k] = [2, 4, k + 2];
      else if (count(tokens[k]) !== undefined) [lo, hi, k] = [count(tokens[k])!, count(tokens[k])!, k + 1];
      if (tokens[k] === 'fortnight' || tokens[k] === 'fortnights') [lo, hi] = [(lo ?? 1) * 2, (hi ?? 1) * 2];
      const unit = tokens[k] === 'fortnight' || tokens[k] === 'fortnights' ? 7 : /^days?$/u.test(tokens[k] ?? '') ? 1 : /^weeks?$/u.test(tokens[k] ?? '') ? 7 : /^months?$/u.test(tokens[k] ?? '') ? 30 : undefined;
      if (lo !== undefined && hi !== undefined && unit !== undefined) {
        const approx = tokens[i + 1] === 'about' || tokens[i + 1] === 'around' || tokens[i + 1] === 'roughly' ? Math.ceil(unit / 2) : 0;
        const range = t === 'within' ? { from: 0, to: hi * unit } : { from: lo * unit - approx, to: hi * unit + approx };
        out.push({ start: i, end: k + 1, range });
        i = k;
        continue;
      }
    }
    // "2019", "in 2022", "since 2019": that whole year (looking back, a year not come yet names nothing; looking
    // on, one gone names nothing; nor does a year beyond what people plan or remember plainly: "by 2050 at this
    // rate" is a joke, not a date).
    if (/^(?:19|20)\d{2}$/u.test(t)) {
      const year = Number(t);
      const now = today.getUTCFullYear();
      if (past ? year <= now && year >= now - 60 : year >= now && year <= now + 2) {
        const first = daysTo(today, year, 0, 1);
        const last = daysTo(today, year, 11, 31);
        out.push({ start: i, end: i + 1, range: past ? { from: first, to: Math.min(0, last) } : { from: Math.max(0, first), to: last } });
      }
      continue;
    }
    // Holidays and the turn of the year: "christmas", "the new year", "new years".
    if (t === 'christmas' || t === 'xmas') {
      const day = monthDay(today, 11, 24, past);
      out.push({ start: i, end: i + 1, range: { from: day, to: day + 2 } });
      continue;
    }
    if (t === 'new' && (next === 'year' || next === 'years')) {
      const day = monthDay(today, 0, 1);
      out.push({ start: i, end: i + 2, range: { from: day - 1, to: day + 6 } });
      i++;
      continue;
    }
  }
  return out;
}

/** Now, today, tomorrow in the major languages (normalized: no accents; "aujourd'hui" is "aujourd hui"). */
const NOW = [['now'], ['right', 'now'], ['asap'], ['a', 's', 'a', 'p'], ['as', 'soon', 'as', 'possible'], ['immediately'], ['straight', 'away'], ['right', 'away'], ['urgently'], ['sofort'], ['ahora'], ['maintenant'], ['subito'], ['nu'], ['agora']];
const TODAY = [
  ['today'], ['tonight'], ['this', 'evening'], ['this', 'afternoon'], ['this', 'morning'], ['later', 'today'], ['later', 'on', 'today'],
  ['earlier', 'today'], ['heute'], ['heute', 'abend'], ['heute', 'nachmittag'], ['hoy'], ['esta', 'noche'], ['esta', 'tarde'], ['aujourd', 'hui'], ['ce', 'soir'],
  ['cet', 'apres', 'midi'], ['oggi'], ['stasera'], ['oggi', 'pomeriggio'], ['hoje'], ['hoje', 'a', 'noite'], ['vandaag'], ['vanavond'],
];
/** The words of TODAY that name the whole day. */
const TODAY_ALONE = new Set(['today', 'heute', 'hoy', 'oggi', 'hoje', 'vandaag']);
const TOMORROW = [['tomorrow'], ['tmrw'], ['tmr'], ['tomorow'], ['tommorow'], ['tommorrow'], ['manana'], ['demain'], ['morgen'], ['domani'], ['amanha']];
const at = (tokens: readonly string[], i: number, words: readonly (readonly string[])[]) =>
  words.filter((p) => p.every((w, k) => tokens[i + k] === w)).sort((a, b) => b.length - a.length)[0];

/**
 * A day the words at `i` name relative to today ("now", "tonight", "tomorrow", "this week", "next weekend",
 * "next month", "this year"), in days from today; looking back (`past`) "this week" and "this month" are their
 * days up to today.
 */
function relativeMentionAt(tokens: readonly string[], i: number, today: Date, past: boolean): Mention | undefined {
  const dow = weekday(today);
  const y = today.getUTCFullYear();
  const m = today.getUTCMonth();
  const said = (words: readonly string[] | undefined, from: number, to: number) => (words ? { start: i, end: i + words.length, range: { from, to } } : undefined);
  // ("Morgen fruh", "tomorrow morning": the day is what counts.)
  // (Looking back, "now" tells of how things are, not when they happened: "I'm only seeing it now"; "just now" does.)
  if (past && tokens[i] === 'just' && tokens[i + 1] === 'now') return { start: i, end: i + 2, range: { from: 0, to: 0, part: 'now' } };
  const now = past ? undefined : at(tokens, i, NOW);
  if (now) return { start: i, end: i + now.length, range: { from: 0, to: 0, part: 'now' } };
  const day = at(tokens, i, TODAY);
  // ("Tonight", "this morning": the rest of today, after now or, looking back, before it; "today" is either.)
  if (day) return { start: i, end: i + day.length, range: { from: 0, to: 0, part: day.length === 1 && TODAY_ALONE.has(day[0]!) ? undefined : 'rest' } };
  // (Looking back, "tomorrow" is still a date: a second one, and "today, tomorrow" names none surely.)
  const tomorrow = tokens[i - 1] === 'after' ? undefined : at(tokens, i, TOMORROW);
  if (tomorrow) return said(tomorrow, 1, 1);
  if (!past && tokens[i] === 'the' && tokens[i + 1] === 'day' && tokens[i + 2] === 'after' && tokens[i + 3] === 'tomorrow') return { start: i, end: i + 4, range: { from: 2, to: 2 } };
  const which = tokens[i];
  if (which !== 'this' && which !== 'next') return undefined;
  const what = tokens[i + 1];
  if (past && which === 'next') return undefined;
  if (what === 'week') return which === 'this' ? said([which, what], past ? -dow : 0, past ? 0 : 6 - dow) : said([which, what], 7 - dow, 13 - dow);
  if (what === 'weekend' && !past) return which === 'this' ? said([which, what], Math.max(0, 5 - dow), 6 - dow) : said([which, what], 12 - dow, 13 - dow);
  if (what === 'month') {
    if (which === 'next') return said([which, what], daysTo(today, y, m + 1, 1), daysTo(today, y, m + 1, endOfMonth(y, m + 1)));
    return said([which, what], past ? daysTo(today, y, m, 1) : 0, past ? 0 : daysTo(today, y, m, endOfMonth(y, m)));
  }
  if (what === 'year' && which === 'next') return said([which, what], daysTo(today, y + 1, 0, 1), daysTo(today, y + 1, 11, 31));
  return undefined;
}

/** Words before a date that bound it from below ("not before", "not until", "after", "from"). */
const FROM_WORDS = [['not', 'before'], ['not', 'until'], ['not', 'till'], ['not', 'til'], ['no', 'earlier', 'than'], ['after'], ['from'], ['starting'], ['beginning']];
/** Words that bound it from above ("by", "before", "no later than"). */
const BY_WORDS = [['by'], ['before'], ['no', 'later', 'than'], ['not', 'later', 'than'], ['until'], ['till']];
const WHICH_ONE = new Set(['last', 'this', 'next', 'the', 'coming']);
const endsWith = (tokens: readonly string[], at: number, p: readonly string[]) => p.every((w, k) => tokens[at - p.length + k] === w);

/**
 * The category whose window holds the one date the text names (with its bound: "not before january" is
 * January or later), or undefined. It returns the message's tokens and where the date stands in them, so
 * that callers can check the clause's subject and time themselves (dated-answers.ts).
 */
export function readTimingWindow(
  text: string,
  categories: readonly string[],
  today: Date,
): { category: string; start: number; end: number; tokens: string[]; past: boolean } | undefined {
  const of = windowsOf(categories, today);
  if (!of) return undefined;
  const { windows, halfDays, past } = of;
  const tokens = tokenize(text);
  // ("Not today, but tomorrow's fine": a date denied in its clause is not the answer; the one left may be.)
  const all = mentionsIn(tokens, today, past);
  const mentions = all.length > 1 ? all.filter((m) => !deniedInClause(tokens, m.start)) : all;
  if (mentions.length !== 1) return undefined;
  const [m] = mentions as [Mention];
  let { from, to } = halfDays ? inHalfDays(m.range, past) : m.range;
  // ("The 1st" is the start asked; "from the 1st", "after christmas", "not before january": that or later.)
  // (Past the words that only say which one: "before last christmas", "by this friday".)
  let before = m.start;
  while (before > 0 && WHICH_ONE.has(tokens[before - 1]!)) before--;
  const fromBound = FROM_WORDS.find((p) => endsWith(tokens, before, p) || endsWith(tokens, before, [...p, 'the']));
  const byBound = BY_WORDS.find((p) => endsWith(tokens, before, p) || endsWith(tokens, before, [...p, 'the']));
  if (fromBound && (fromBound[0] === 'not' || fromBound[0] === 'no' || fromBound[0] === 'after')) to = Infinity;
  // ("Before christmas" looking back is any time before it, not from now: asked when you moved in, no answer.)
  else if (byBound) from = past ? -Infinity : 0;
  // Any other negation in its clause ("not on the 12th") leaves it unread.
  let s = m.start;
  while (s > 0 && tokens[s - 1] !== BREAK) s--;
  const clause = tokens.slice(s, before - (fromBound?.length ?? 0));
  if (!fromBound && clause.some((w) => w === 'not' || w === 'no' || w === 'never')) return undefined;
  if (from < 0 && !past) return undefined;
  if (past && fromBound) return undefined;
  const holding = [...windows].filter(([, w]) => w.from <= from && to <= w.to);
  return holding.length === 1 ? { category: holding[0]![0], start: m.start, end: m.end, tokens, past } : undefined;
}
