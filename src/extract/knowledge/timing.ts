/**
 * When: now, within a month, later, today, this week (issue 26: general
 * knowledge beyond a flow author's synonyms). The English adverbs are the
 * members of WordNet's synsets (`wordnet.generated.ts`) less those that read
 * two ways; the phrases people type and the other languages' words are kept
 * by hand. Keys are category names as normalized.
 */
import { WORDNET_ADVERBS } from './wordnet.generated.js';

/**
 * WordNet members left out: "soon", "shortly", "before long", "presently"
 * fit "within a month" as well as "immediately"; "directly" also means
 * "straight from"; "after" needs an object.
 */
const AMBIGUOUS = ['soon', 'shortly', 'before long', 'presently', 'directly', 'after'];
const fromWordNet = (kind: string) => (WORDNET_ADVERBS[kind] ?? []).filter((w) => !AMBIGUOUS.includes(w));

/** "As soon as possible" in the major languages: the nearest category there is (now, today, this week). */
const AS_SOON_AS_POSSIBLE = [
  'lo antes posible', 'lo mas pronto posible', 'cuanto antes', 'so schnell wie moglich', 'schnellstmoglich', 'baldmoglichst',
  'des que possible', 'au plus vite', 'le plus vite possible', 'le plus tot possible', 'il prima possibile', 'prima possibile',
  'zo snel mogelijk', 'o mais rapido possivel', 'o quanto antes', 'assim que possivel',
];

const NEXT_DAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].flatMap((d) => [`next ${d}`, `this ${d}`, `this coming ${d}`]);
/** Within two weeks: now, the next few days, next week (every "next monday" falls in it). */
const WITHIN_TWO_WEEKS = [
  'within two weeks', 'within 2 weeks', 'within a fortnight', 'in a fortnight', 'in two weeks', 'in 2 weeks', 'in a week',
  'in 10 days', 'in ten days', 'next week', 'sometime next week', 'early next week', 'next weekend', 'this weekend',
  'in a few days', 'in a couple of days', 'in a couple days', 'tomorrow', 'the day after tomorrow', 'this week', 'later this week',
  'today', 'tonight', 'right now', 'right away', 'straight away', 'immediately', 'asap', 'a s a p', 'as soon as possible',
  'sofort', 'ab sofort', 'inmediatamente', 'de inmediato', 'tout de suite', 'immediatement', 'subito', 'meteen',
  'la semaine prochaine', 'semaine prochaine', 'nachste woche', 'naechste woche', 'la proxima semana', 'proxima semana',
  'la semana que viene', 'volgende week', 'la prossima settimana', 'semana que vem', 'in zwei wochen', 'en dos semanas',
  'dans deux semaines', 'dans quinze jours', 'en quince dias', 'tra due settimane', ...NEXT_DAYS,
];
/** Within two months (and not within two weeks, which the category before it answers): weeks away, next month. */
const WITHIN_TWO_MONTHS = [
  'within two months', 'within 2 months', 'within a couple of months', 'in two months', 'in 2 months', 'in three weeks', 'in 3 weeks', 'in a few weeks',
  'in a couple of weeks', 'in a couple weeks', 'a few weeks', 'in a month', 'within a month', 'in four weeks', 'in 4 weeks',
  'in five weeks', 'in 5 weeks', 'in six weeks', 'in 6 weeks', 'in a month or so', 'in a month or two', 'next month',
  'early next month', 'this month', 'end of the month', 'by the end of the month', 'in the next few weeks', 'within six weeks',
  'le mois prochain', 'el mes que viene', 'el proximo mes', 'nachsten monat', 'naechsten monat', 'im nachsten monat',
  'il mese prossimo', 'volgende maand', 'en tres semanas', 'in drei wochen', 'dans trois semaines', 'dans un mois', 'en un mes',
  'in einem monat',
];

/** How flexible a date is: any day; a few days either way; a fixed day. */
const ANY_DAY = [
  'any day', 'any day works', 'any day is fine', 'any time', 'anytime', 'any date', 'whenever', 'whenever suits', 'whenever suits you',
  'whenever works', 'whenever is best', 'whenever you can', 'totally flexible', 'completely flexible', 'fully flexible',
  'very flexible', 'super flexible', 'no fixed date', 'no set date', 'we are flexible', 'i am flexible', 'egal wann', 'jederzeit',
  'sehr flexibel', 'cuando sea', 'cualquier dia', 'muy flexible', 'quand vous voulez', 'n importe quand', 'tres flexible',
  'quando volete', 'qualsiasi giorno', 'maakt niet uit wanneer', 'wanneer je wilt',
];
const FEW_DAYS = [
  'a few days either way', 'a day or two either way', 'a couple of days either way', 'give or take a few days',
  'give or take a couple of days', 'give or take a day or two', 'plus or minus a few days', 'a bit flexible', 'somewhat flexible',
  'slightly flexible', 'a little flexible', 'fairly flexible', 'within a few days', 'ein paar tage', 'unos dias arriba o abajo',
  'quelques jours pres', 'a few days',
];
const FIXED_DAY = [
  'fixed', 'fixed date', 'fixed day', 'set date', 'set in stone', 'exact date', 'that exact day', 'exactly that day',
  'has to be that day', 'must be that day', 'has to be on that day', 'no flexibility', 'not flexible at all', 'zero flexibility',
  'no wiggle room', 'festes datum', 'fester termin', 'fecha fija', 'date fixe', 'data fissa', 'vaste datum',
];

/** Timing words by the category names they answer. */
export const TIMING: Readonly<Record<string, readonly string[]>> = {
  'very flexible': ANY_DAY,
  flexible: ANY_DAY,
  'a few days either way': FEW_DAYS,
  'a few days': FEW_DAYS,
  'somewhat flexible': FEW_DAYS,
  'fixed date': FIXED_DAY,
  fixed: FIXED_DAY,
  'not flexible': FIXED_DAY,
  'within two weeks': WITHIN_TWO_WEEKS,
  'within 2 weeks': WITHIN_TWO_WEEKS,
  'within a fortnight': WITHIN_TWO_WEEKS,
  'within two months': WITHIN_TWO_MONTHS,
  'within 2 months': WITHIN_TWO_MONTHS,
  immediately: [
    ...fromWordNet('immediately'),
    'asap', 'a s a p', 'as soon as possible', 'right now', 'straight away', 'ready now',
    'today', 'tomorrow', 'this week', 'sofort', 'ab sofort', 'inmediatamente', 'ya', 'de inmediato',
    'tout de suite', 'immediatement', 'subito', 'meteen', 'the sooner the better', 'whenever it is free', 'yesterday',
    ...AS_SOON_AS_POSSIBLE,
  ],
  // Nearer than a week: now, and the next few days (a flow with this category lists it before "Within a month").
  'within a week': [
    'within a week', 'asap', 'a s a p', 'as soon as possible', 'right now', 'right away', 'straight away', 'immediately', 'today',
    'tonight', 'tomorrow', 'the day after tomorrow', 'this week', 'in a few days', 'in a couple of days', 'in a couple days',
    'in two days', 'in 2 days', 'in three days', 'in 3 days', 'this weekend', 'later this week', 'sofort', 'ab sofort',
    'inmediatamente', 'de inmediato', 'tout de suite', 'immediatement', 'subito', 'meteen', 'demain', 'manana', 'morgen',
    'domani', 'amanha', 'heute', 'hoy', 'aujourd hui', 'oggi', 'vandaag', ...AS_SOON_AS_POSSIBLE,
    'en unos dias', 'en unos pocos dias', 'in ein paar tagen', 'in wenigen tagen', 'dans quelques jours', 'tra qualche giorno',
    'over een paar dagen', 'esta semana', 'diese woche', 'cette semaine', 'questa settimana', 'deze week',
  ],
  'within a month': [
    'within a month', 'within the month', 'before the end of the month', 'in a fortnight', 'in two weeks time', 'sometime next week', 'next week', 'in a week', 'in two weeks', 'in 2 weeks', 'in three weeks', 'in 3 weeks', 'in a few weeks',
    'in a couple of weeks', 'in a couple weeks', 'a few weeks', 'couple of weeks', 'couple weeks', 'in a month', 'this month',
    'within 30 days', 'within four weeks', 'end of the month', 'by the end of the month', 'start of next month',
    'beginning of next month', 'first of next month', 'in 10 days', 'in ten days',
    // Nearer than a month, where no category says "now" (one that does is listed first and keeps them).
    'tomorrow', 'the day after tomorrow', 'in a few days', 'in a couple of days', 'in a couple days', 'this weekend',
    'later this week', 'early next week', 'in a week or two', 'in the next few weeks',
    // Other major languages: within a month, in two or three weeks.
    'dentro de un mes', 'en un mes', 'en menos de un mes', 'en dos semanas', 'en tres semanas', 'en unas semanas',
    'innerhalb eines monats', 'in einem monat', 'in zwei wochen', 'in drei wochen', 'in ein paar wochen', 'dans un mois',
    'd ici un mois', 'dans deux semaines', 'dans trois semaines', 'dans quelques semaines', 'entro un mese', 'tra un mese',
    'tra due settimane', 'tra tre settimane', 'binnen een maand', 'over twee weken', 'over drie weken', 'dentro de um mes',
    'em duas semanas',
  ],
  later: [
    ...fromWordNet('later'),
    // Said where the nearest categories are today and tomorrow (a flow with "Within a month" or "Next week" lists those first).
    'next week', 'sometime next week', 'in a fortnight', 'in two weeks', 'in 2 weeks', 'after new year',
    'after the holidays', 'after christmas', 'in the new year',
    'next year', 'next spring', 'next summer', 'next autumn', 'next fall', 'next winter', 'in spring', 'in the summer',
    'in a few months', 'in a couple of months', 'in a couple months', 'in two months', 'in 2 months', 'in three months',
    'in 3 months', 'in six months', 'in 6 months', 'no rush', 'no hurry', 'not before summer', 'sometime next year',
    'later this year', 'mas tarde', 'spater', 'plus tard', 'in the new year', 'after the summer',
    'in the autumn', 'in autumn', 'in the fall', 'in summer', 'next spring',
    // Other major languages: next year, in the new year, in spring or summer, later on.
    'el ano que viene', 'el proximo ano', 'el ano proximo', 'el ano nuevo', 'despues de ano nuevo', 'en primavera', 'en verano',
    'mas adelante', 'nachstes jahr', 'naechstes jahr', 'im neuen jahr', 'nach neujahr', 'im fruhling', 'im fruhjahr', 'im sommer',
    'l annee prochaine', 'annee prochaine', 'l an prochain', 'apres le nouvel an', 'au printemps', 'en ete', 'l anno prossimo',
    'anno prossimo', 'in primavera', 'in estate', 'piu tardi', 'volgend jaar', 'in het voorjaar', 'ano que vem', 'no proximo ano',
    'mais tarde',
  ],
  tomorrow: [
    'the day after today', 'tomorrow', 'tmrw', 'tmr', 'tmrow', 'tomorow', 'tommorow', 'tommorrow', 'tomorrow morning', 'tomorrow afternoon',
    'tomorrow evening', 'tomorrow night', 'first thing tomorrow', 'manana', 'demain', 'demain matin', 'morgen', 'morgen fruh',
    'amanha', 'domani', 'jutro',
  ],
  'next week': [
    'next week', 'sometime next week', 'early next week', 'la semaine prochaine', 'semaine prochaine', 'nachste woche',
    'naechste woche', 'la proxima semana', 'proxima semana', 'la semana que viene', 'volgende week', 'la prossima settimana',
    'semana que vem', 'proxima semana',
  ],
  today: [
    'today', 'right now', 'right away', 'straight away', 'immediately', 'at once', 'same day', 'the same day', '2day',
    'hoy mismo', 'heute noch', 'aujourd hui meme', 'oggi stesso', 'later today', 'later this evening', 'later tonight', 'this very day', 'right now', 'asap', 'as soon as possible', 'this morning', 'this afternoon', 'this evening', 'tonight', 'later today', 'in an hour', 'in 2 hours',
    'in two hours', 'in a few hours', 'hoy', 'heute', 'aujourd hui', 'oggi', 'hoje', 'vandaag', 'dzisiaj', ...AS_SOON_AS_POSSIBLE,
  ],
  'this week': [
    'this week', 'asap', 'as soon as possible', 'right away', 'this weekend', 'this saturday', 'this sunday', 'this friday', 'later this week', 'in the next few days', 'in 2 days', 'in two days', 'in 3 days', 'in three days', 'in a few days', 'in a couple of days',
    'in a couple days', 'within the week', 'before the weekend', 'by the end of the week', 'esta semana', 'diese woche',
    'cette semaine', 'questa settimana', 'deze week', ...AS_SOON_AS_POSSIBLE,
  ],
};
