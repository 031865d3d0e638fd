/**
 * How often: never, rarely, sometimes, often, daily (issue 26: general
 * knowledge beyond a flow author's synonyms). The English adverbs are the
 * members of WordNet's synsets (`wordnet.generated.ts`); the phrases people
 * type and the other languages' words are kept by hand. Keys are category
 * names as normalized: a question with a category of that name gets them.
 */
import { WORDNET_ADVERBS } from './wordnet.generated.js';

/** WordNet members left out: archaic spellings. */
const fromWordNet = (kind: string, except: readonly string[] = []) => (WORDNET_ADVERBS[kind] ?? []).filter((w) => !except.includes(w) && !w.includes("'"));

const NEVER = [
  ...fromWordNet('never'),
  'no', 'nope', 'nah', 'none', 'not at all', 'nobody', 'no one', 'noone', 'nobody smokes', 'no one smokes',
  'non smoker', 'non smokers', 'non smoking', 'nonsmoker', 'smoke free', 'smoke free household', 'we do not smoke',
  'i do not smoke', 'do not smoke', 'does not smoke', 'nobody does', 'never have', 'never did', 'not ever', 'nunca', 'jamais',
  'niemals', 'nie', 'mai', 'nooit', 'aldrig', 'quit', 'i quit', 'quit smoking', 'stopped smoking', 'gave up smoking',
  'not anymore', 'not any more', 'no longer',
  // A plain no in the major languages, as the English one.
  'nein', 'non', 'nee', 'nej', 'nei', 'nao', 'não', 'нет', 'niet', 'hayir', 'όχι', 'いいえ', 'tidak',
];
/** "Never" as an adverb of frequency, in the major languages: the lowest option where a question has no "Never". */
export const NEVER_ADVERBS: readonly string[] = [
  ...fromWordNet('never'), 'not ever', 'never ever', 'practically never', 'basically never', 'pretty much never', 'nunca', 'jamais',
  'niemals', 'nie', 'nooit', 'aldrig', 'mai',
];
const RARELY = [...fromWordNet('rarely'), 'hardly ever', 'almost never', 'once in a blue moon', 'rarement', 'selten', 'raramente'];
const SOMETIMES = [
  ...fromWordNet('sometimes'),
  'every now and then', 'every so often', 'socially', 'at parties', 'on weekends', 'at the weekend', 'a few times a week', 'once a week',
  'twice a week', 'a couple times a week', 'a couple of times a week', 'the odd cigarette', 'a cigarette now and then',
  'manchmal', 'ab und zu', 'a veces', 'de vez en cuando', 'parfois', 'de temps en temps', 'soms', 'qualche volta', 'as vezes',
];
const OFTEN = [...fromWordNet('often'), 'a lot', 'most days', 'souvent', 'a menudo'];
const DAILY = [
  ...fromWordNet('daily'),
  'every day', 'everyday', 'each day', 'all day', 'a pack a day', 'pack a day', 'half a pack a day',
  'a pack every day', 'packs a day', 'chain smoker', 'chain smoke', 'heavy smoker', 'every morning', 'every evening',
  'every night', 'all the time', 'constantly', 'taglich', 'jeden tag', 'todos los dias', 'diario', 'tous les jours',
  'quotidiennement', 'ogni giorno', 'codziennie', 'dagelijks',
];

const WEEKLY = [
  'weekly', 'every week', 'each week', 'once a week', 'once per week', 'every weekend', 'each weekend', 'most weekends',
  'at weekends', 'on weekends', 'a few times a week', 'twice a week', 'several times a week', 'once or twice a week',
  'jede woche', 'jedes wochenende', 'einmal pro woche', 'einmal die woche', 'cada semana', 'todas las semanas',
  'una vez a la semana', 'una vez por semana', 'cada fin de semana', 'chaque semaine', 'une fois par semaine',
  'tous les week ends', 'ogni settimana', 'elke week', 'wekelijks', 'semanal', 'semanalmente', 'hebdomadaire', 'wochentlich',
];
const MONTHLY = [
  'monthly', 'every month', 'each month', 'once a month', 'once per month', 'a few times a month', 'once or twice a month',
  'twice a month', 'one weekend a month', 'a weekend a month', 'every few weeks', 'every other week', 'jeden monat',
  'einmal im monat', 'einmal pro monat', 'cada mes', 'todos los meses', 'una vez al mes', 'una vez por mes', 'chaque mois',
  'une fois par mois', 'tous les mois', 'ogni mese', 'una volta al mese', 'elke maand', 'maandelijks', 'mensual',
  'mensualmente', 'mensuel', 'monatlich',
];

/** Frequency words by the category names they answer. */
/** Never before: a category that says this is the first time ("First time", asked how often it happened before). */
const FIRST_TIME = [
  'first time', 'the first time', 'this is the first time', 'first time ever', 'the first time ever', 'never before',
  'never happened before', 'it never happened before', 'never had this before', 'never had it before', 'not before',
  'not once before', 'never', 'never ever', 'first', 'premiere fois', 'la premiere fois', 'primera vez', 'la primera vez',
  'erstes mal', 'das erste mal', 'prima volta', 'la prima volta', 'eerste keer', 'de eerste keer', 'primeira vez', 'jamais',
  'nunca', 'noch nie', 'mai prima', 'nooit eerder',
];

export const FREQUENCY: Readonly<Record<string, readonly string[]>> = {
  'first time': FIRST_TIME,
  'never before': FIRST_TIME,
  never: NEVER,
  rarely: RARELY,
  occasionally: SOMETIMES,
  sometimes: SOMETIMES,
  often: OFTEN,
  frequently: OFTEN,
  daily: DAILY,
  weekly: WEEKLY,
  monthly: MONTHLY,
};
