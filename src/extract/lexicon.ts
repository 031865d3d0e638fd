/**
 * The offline matcher's built-in words. Phrases are written normalized (see
 * normalize.ts: lowercase, contractions expanded). A flow adds its own per
 * category through `synonyms`.
 */

import { EMPLOYMENT } from './knowledge/occupations.js';
import { FREQUENCY } from './knowledge/frequency.js';
import { LOCALE_YES_NO } from './knowledge/locales.generated.js';
import { TIMING } from './knowledge/timing.js';
import { COVER, SIZES } from './knowledge/sizes.js';
import { HOUSING } from './knowledge/housing.js';
import { COMMON_ANSWERS } from './knowledge/common-answers.js';
import { ROLES } from './knowledge/roles.js';
import { BANKING } from './knowledge/banking.js';

/** Yes and no as glibc's locales write them (single words: "tidak", "không", "hayır", "nu"). */
const LOCALE_WORDS = {
  yes: [...new Set(Object.values(LOCALE_YES_NO).map((e) => e.yes))],
  no: [...new Set(Object.values(LOCALE_YES_NO).map((e) => e.no))],
};

/** Phrases for common category names, used when a question has a category of that name. */
export const COMMON_SYNONYMS: Record<string, readonly string[]> = {
  yes: [
    'yes', 'yeah', 'yea', 'yep', 'yup', 'ya', 'yah', 'yess', 'yse', 'ys', 'yeh', 'yas', 'ye', 'y', 'aye', 'sure', 'certainly',
    'correct', 'affirmative', 'absolutely', 'definitely', 'of course', 'indeed', 'uh huh', 'yes please',
    'we do', 'i do', 'it does', 'they do', 'he does', 'she does', 'we have', 'we have it', 'we have that',
    'that is right', 'that is correct',
    'i think so', 'i believe so', 'positive', 'true', 'totally', 'for sure', 'we got it', 'got it',
    // Other major languages (issue 26).
    'si', 'claro', 'ja', 'jawohl', 'genau', 'oui', 'ouais', 'da', 'sim', 'tak', 'evet', 'hai', 'はい', 'ええ', 'да', 'так',
    'ναι', 'igen', 'ano', 'kyllä', 'kylla', 'sì', 'certo', '是', '是的', '对', '네', '예', 'نعم', 'כן', 'हाँ', 'haan',
    ...LOCALE_WORDS.yes,
  ],
  no: [
    'no', 'nope', 'nah', 'noo', 'n', 'none', 'negative', 'never', 'not at all', 'no way', 'not really', 'not yet',
    'absolutely not', 'definitely not', 'of course not', 'certainly not', 'sure not', 'really not',
    'we do not', 'i do not', 'it does not', 'they do not', 'he does not', 'she does not', 'does not',
    'do not have', 'we have not', 'there is not', 'there are not', 'there were not', 'there was not',
    'not that i know of', 'not as far as i know', 'nothing', 'false', 'nada',
    'will not', 'i will not', 'we will not', 'nobody', 'no one', 'nobody else', 'no one else', 'nobody will', 'no one will',
    // Never at all, said with the verb (issue 26: negated answers).
    'never have', 'never had', 'never has', 'never did', 'never been', 'not once', 'not ever', 'nobody does', 'no one does',
    // Other major languages (issue 26).
    'nein', 'non', 'nee', 'nej', 'nei', 'nao', 'não', 'nie', 'нет', 'ні', 'いいえ', 'hayir', 'όχι', 'ochi', 'nem', 'ne', 'ei',
    '不', '不是', '没有', '아니요', '아니', 'لا', 'לא', 'नहीं', 'nahin', 'niet', 'nope nope',
    ...LOCALE_WORDS.no,
  ],
  partial: [
    'partial', 'partially', 'partly', 'in part', 'some', 'somewhat', 'sort of', 'kind of', 'a bit',
    'a little', 'mixed', 'some of it', 'some of them', 'here and there', 'on and off', 'off and on',
    'sometimes', 'occasionally', 'a few',
  ],
  // General knowledge (issue 26): the words people use for common categories, in the major languages, kept
  // with their sources in knowledge/. A flow's own synonyms win over these; none of them ever answers a
  // question not being asked.
  ...FREQUENCY,
  ...TIMING,
  ...EMPLOYMENT,
  ...SIZES,
  ...COVER,
  ...HOUSING,
  ...COMMON_ANSWERS,
  ...ROLES,
  ...BANKING,
  email: ['email', 'e mail', 'by email', 'courriel', 'par courriel', 'correo', 'correo electronico', 'por correo', 'por email'],
  phone: ['phone', 'by phone', 'call', 'call me', 'phone call', 'telephone', 'telefono', 'por telefono', 'telefon', 'par telephone', 'anruf'],
  'text message': ['text message', 'text', 'sms', 'by text', 'texting', 'mensaje de texto', 'por sms', 'par sms', 'whatsapp'],
  unknown: ['unknown', 'not sure', 'unsure', 'do not know', 'no idea', 'no clue', 'not certain', 'can not say'],
  'not sure': ['not sure', 'unsure', 'do not know', 'no idea', 'no clue', 'not certain', 'can not say', 'unknown'],
};

/**
 * Phrases that say the person does not know or is hedging. When a question has
 * no category for them, the matcher abstains rather than guess.
 */
export const UNCERTAIN_PHRASES: readonly string[] = [
  'not sure', 'unsure', 'do not know', 'i do not know', 'no idea', 'no clue', 'not certain', 'can not say',
  'can not remember', 'do not remember', 'not really sure', 'maybe', 'perhaps', 'possibly', 'might',
  'might be', 'could be', 'hard to say', 'i guess', 'probably', 'not sure yet', 'unclear', 'who knows',
  'either', 'or', 'depends', 'it depends', 'let me check', 'need to check', 'have to check',
  // The same hedges in the major languages ("peut-être", "vielleicht", "quizás", "no sé").
  'peut etre', 'je ne sais pas', 'sais pas', 'vielleicht', 'keine ahnung', 'weiss nicht', 'quizas', 'quiza', 'tal vez',
  'a lo mejor', 'no se', 'ni idea', 'depende', 'forse', 'non so', 'misschien', 'weet niet', 'geen idee', 'talvez', 'nao sei',
  'ca depend', 'cela depend', 'kommt darauf an', 'kommt drauf an', 'dipende', 'hangt ervan af', 'hangt er van af',
  // Qualifiers: the answer holds only in part.
  'mostly', 'mainly', 'largely', 'almost', 'nearly', 'except', 'apart from', 'other than', 'besides',
];

/**
 * Phrases that place a statement at another time ("we used to", "not
 * anymore"): what it says held then, not now, so it answers nothing surely.
 */
export const TEMPORAL_PHRASES: readonly string[] = [
  'used to', 'no longer', 'not anymore', 'not any more', 'any longer', 'not since', 'not these days', 'not nowadays',
];

/** The same, only for a statement in their own clause ("I can't drive anymore, so video" still answers). */
export const CLAUSE_TEMPORAL_PHRASES: readonly string[] = ['anymore', 'any more', 'these days', 'nowadays'];

/** Hedges that, right before a count ("maybe one gap"), say the count is approximate rather than the answer unsure. */
export const APPROXIMATE_HEDGES: readonly string[] = ['maybe', 'perhaps', 'probably', 'possibly'];

/** Words that count ("one gap", "twice"), after which a soft hedge qualifies the count. */
export const COUNT_WORDS: readonly string[] = [
  'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'once', 'twice',
];

/**
 * Words that open a question ("is it...?", "does that count?"): a clause
 * ending in "?" that starts with one is asked, not answered. A clause ending in
 * "?" without one ("about my bill?") is an answer said with a rising voice.
 */
export const QUESTION_VERBS: readonly string[] = [
  'is', 'are', 'am', 'was', 'were', 'do', 'does', 'did', 'can', 'could', 'will', 'would', 'should', 'shall', 'may',
  'might', 'must', 'have', 'has', 'had', 'any', 'anything',
];

/**
 * Determiners: "the follow-up form", "my email address" name a thing (a form,
 * an address) that the category word only describes.
 */
export const DETERMINERS: readonly string[] = ['the', 'a', 'an', 'my', 'your', 'his', 'her', 'our', 'their', 'this', 'that', 'its'];

/**
 * Words that may follow a category word without making it describe another
 * noun ("a video visit" aside): verbs, pronouns, particles, time words.
 */
export const NOT_A_HEAD_NOUN: readonly string[] = [
  'is', 'was', 'are', 'were', 'be', 'been', 'am', 'and', 'or', 'nor', 'for', 'to', 'from', 'with', 'in', 'on', 'at', 'of',
  'by', 'via', 'over', 'through', 'please', 'pls', 'plz', 'me', 'us', 'him', 'her', 'them', 'it', 'if', 'so', 'then',
  'only', 'instead', 'too', 'also', 'again', 'now', 'right', 'today', 'tonight', 'tomorrow', 'asap', 'thanks', 'thank',
  'thx', 'ty', 'would', 'will', 'should', 'could', 'can', 'may', 'might', 'must', 'has', 'have', 'had', 'do', 'does',
  'did', 'not', 'fine', 'ok', 'okay', 'works', 'work', 'best', 'better', 'good', 'great', 'preferred', 'that', 'this',
  'which', 'who', 'as', 'because', 'since', 'when', 'while', 'where', 'though', 'i', 'we', 'you', 'they', 'he', 'she',
  'here', 'there', 'just', 'really', 'lol', 'either', 'both', 'all', 'any', 'yes', 'no', 'yet', 'still', 'already',
  'first', 'ever', 'never', 'always', 'soon', 'later', 'sometime', 'whatever', 'thing', 'stuff', 'one',
  // People: "a grown man", "a new patient" describe the person the question is about.
  'man', 'woman', 'men', 'women', 'boy', 'girl', 'guy', 'lady', 'gentleman', 'person', 'people', 'patient', 'patients',
  'child', 'kid', 'son', 'daughter', 'adult', 'baby', 'teen', 'teenager', 'individual',
  // Services and channels: "a follow-up appointment", "the emergency room", "my email address" are the answer.
  'appointment', 'appt', 'visit', 'call', 'exam', 'consult', 'consultation', 'session', 'room', 'department', 'dept',
  'address', 'account', 'number', 'line', 'care', 'clinic', 'service', 'option', 'please',
];

/**
 * Words that, opening a clause after the first, restrict what came before
 * ("gaps in coverage, but only one"): the answer holds only in part.
 */
export const RESTRICTING_OPENERS: readonly string[] = [
  'only', 'except', 'apart from', 'other than', 'aside from',
  // "We have his name, that's it": what came before is all there is.
  'that is it', 'that is all', 'nothing else', 'nothing more', 'and that is it', 'and that is all',
];

/** Set phrases that contain answer words but answer nothing ("no problem"). */
export const NEUTRAL_PHRASES: readonly string[] = [
  'no problem', 'no worries', 'not a problem', 'no offense', 'no pressure', 'no hurry', 'yes and no',
];

/**
 * Words that start a correction at the head of a clause: what follows replaces
 * what came before ("no, wait, yes we do").
 */
export const CORRECTION_MARKERS: readonly string[] = [
  'wait', 'actually', 'i mean', 'sorry', 'scratch that', 'correction', 'no wait', 'well', 'on second thought',
  'oh wait', 'oh actually', 'hold on', 'oh no wait', 'no sorry', 'oops',
  'i meant', 'make that', 'make it', 'hmm no', 'hm no', 'no actually', 'or rather', 'typo', 'my bad', 'let me correct that',
  'hang on', 'wait no', 'no no', 'never mind', 'nevermind', 'nvm', 'on second thoughts', 'come to think of it', 'now that i think of it',
  'let me rephrase', 'strike that', 'i take that back', 'rather', 'more like', 'well no', 'ok honestly',
];

/**
 * Words that say whom the rest of the message is about ("I'm 45, but the
 * patient is my son"): what was said before them may be about someone else,
 * so only what follows answers.
 */
export const SUBJECT_MARKERS: readonly string[] = [
  'the patient is', 'patient is', 'it is for', 'its for', 'this is for', 'calling for', 'on behalf of', 'booking for',
  'the appointment is for', 'the visit is for',
];

/** Thanks and greetings: a clause of these, beside an answer, says nothing else ("…, thanks", "Hiya, …"). */
export const THANKS_AND_GREETINGS: readonly string[] = ['thanks', 'thank', 'you', 'please', 'cheers', 'thx', 'ta', 'hiya', 'hi', 'hello', 'hey'];

/**
 * Words an answer may be said with ("she's a new patient", "by phone
 * please"). A clause of an answer and these alone is said to answer; one with
 * other words ("we have his phone number") only mentions it.
 */
export const ANSWER_FILLERS: readonly string[] = [
  'i', 'we', 'you', 'he', 'she', 'they', 'it', 'this', 'that', 'is', 'am', 'are', 'be', 'a', 'an', 'the', 'my', 'his',
  'her', 'their', 'our', 'me', 'us', 'him', 'them', 'please', 'pls', 'plz', 'thanks', 'by', 'via', 'through', 'over',
  'just', 'only', 'definitely', 'really', 'so', 'ok', 'okay', 'fine', 'best', 'works', 'prefer', 'preferably', 'lol',
  'and', 'then', 'actually', 'now', 'here', 'no', 'nope', 'nah', 'yes', 'yeah', 'yep', 'oh', 'well', 'wait', 'sorry', 'um',
  'uh',
];

/** Words that negate a mention that follows them closely in the same clause. */
export const NEGATORS: readonly string[] = ['not', 'no', 'never', 'without', 'nor', 'neither', 'hardly', 'non'];

/** Words that may stand between a negator and what it negates ("not an emergency", "not really urgent"). */
export const NEGATION_FILLERS: readonly string[] = [
  'a', 'an', 'the', 'really', 'exactly', 'quite', 'very', 'so', 'too', 'any', 'by', 'via', 'through', 'over',
  'for', 'of', 'is', 'it', 'this', 'that', 'be', 'to', 'in', 'at', 'on', 'as', 'with', 'my', 'their', 'his', 'her',
  'they', 'we', 'have', 'has', 'need', 'want', 'like', 'use', 'prefer', 'please', 'do', 'does', 'send',
  // What a message is not about: "not about billing", "nothing to do with billing".
  'about', 'regarding', 'concerning', 're',
];

/**
 * Markers of a message that talks to the assistant instead of answering
 * (attempts to steer it). The matcher never commits on such a message.
 */
export const STEERING_PHRASES: readonly string[] = [
  'ignore', 'disregard', 'instructions', 'instruction', 'system prompt', 'prompt', 'pretend', 'you are now',
  'act as', 'jailbreak', 'developer mode', 'override', 'roleplay', 'role play', 'as an ai', 'skip this',
  'skip the', 'skip all', 'just mark', 'mark it as', 'mark all', 'set all', 'answer for me', 'fill in',
  'fill it', 'fill out', 'you decide', 'choose for me', 'pick for me', 'whatever you want', 'select all',
  'all of them', 'all of the above', 'every option', 'any of them', 'tell the system', 'tell the bot',
  'tell it', 'mark the', 'mark it', 'mark as', 'put down', 'just put', 'just say', 'say it is', 'so we get',
  'so that we', 'so they', 'so the', 'to get seen', 'to skip', 'to move on', 'to speed', 'system',
  'assistant', 'chatbot', 'set the', 'and continue', 'verification passed',
];

/** Words that open a question back to the assistant. */
export const QUESTION_OPENERS: readonly string[] = ['what', 'why', 'how', 'who', 'which', 'whose', 'huh'];

/** Words that ask about the question itself: such a message is never an answer. */
export const META_PHRASES: readonly string[] = [
  'mean', 'means', 'meaning', 'explain', 'difference', 'define', 'definition', 'repeat', 'rephrase',
  'what are the options', 'which one', 'what counts', 'does that count', 'do you need', 'why do you',
];

/**
 * Openers of a polite request ("can we do it over zoom?"): a clause ending in
 * "?" that starts with one of these can still be an answer.
 */
export const REQUEST_OPENERS: readonly string[] = [
  'can we', 'can i', 'can you', 'could we', 'could i', 'could you', 'may we', 'may i', 'would you', 'please',
  'will you', 'can it be', 'can someone', 'can somebody', 'can anyone', 'could someone', 'can he', 'can she', 'can they',
  'could he', 'could she', 'could they',
];

/** Phrases that accept the summary. */
export const CONFIRM_PHRASES: readonly string[] = [
  'ok', 'okay', 'k', 'yes', 'yeah', 'yep', 'yup', 'y', 'sure', 'correct', 'proceed', 'confirm', 'confirmed',
  'looks good', 'look good', 'looks right', 'looks correct', 'all good', 'good', 'fine', 'great', 'perfect',
  'right', 'that is right', 'that is correct', 'right on', 'go ahead', 'submit', 'send it', 'continue',
  'approved', 'approve', 'accurate', 'lgtm', 'done', 'agreed', 'agree', 'exactly', 'yes please',
];

/** Phrases that ask to change something; any of them turns a confirmation into an edit. */
export const EDIT_PHRASES: readonly string[] = [
  'edit', 'change', 'wrong', 'no', 'not', 'incorrect', 'fix', 'update', 'mistake', 'modify', 'redo',
  'go back', 'back', 'revise', 'actually', 'wait', 'hold on', 'error', 'nope', 'never', 'instead',
];
