import { useEffect, useState } from 'react';

/**
 * Times of input gates in words, for the people who wait and who answer:
 * "in 23 hours (Wed, Nov 25, 2:05 PM)", "5 minutes ago". English, as the
 * rest of the widget's own words.
 */

const LOCALE = 'en';
const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
];

/** "in 3 hours", "2 days ago", "in less than a minute": the largest unit that fits, rounded. */
export function relativeTime(at: Date, now: Date): string {
  const ms = at.getTime() - now.getTime();
  const abs = Math.abs(ms);
  if (abs < 60_000) return ms >= 0 ? 'in less than a minute' : 'just now';
  const format = new Intl.RelativeTimeFormat(LOCALE, { numeric: 'auto' });
  // The largest unit with at least 2 of it ("in 36 hours", not "in 2 days" rounded up), days only from 2;
  // a minute short of 2 counts (a deadline 2 hours away, read a moment later, is "in 2 hours", not "in 120 minutes").
  for (const [unit, size] of UNITS) if (abs >= 2 * size - 60_000 || unit === 'minute') return format.format(Math.round(ms / size), unit);
  return format.format(Math.round(ms / 60_000), 'minute');
}

/** "Wed, Nov 25, 2:05 PM": the day and time a deadline falls on, in the viewer's time zone. */
export function clockTime(at: Date): string {
  return at.toLocaleString(LOCALE, { weekday: 'short', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' });
}

/** A gate's deadline in words: "due in 23 hours (Wed, Nov 25, 2:05 PM)", or that it has passed. */
export function deadlineInWords(deadline: string, now: Date): string {
  const at = new Date(deadline);
  if (at.getTime() <= now.getTime()) return `the deadline passed ${relativeTime(at, now)} (${clockTime(at)})`;
  return `due ${relativeTime(at, now)} (${clockTime(at)})`;
}

export { roleInWords } from '../inputs/role-words.js';

/** The time now, again every `everyMs` (relative times stay true while a page stays open). */
export function useNow(everyMs = 30_000): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}
