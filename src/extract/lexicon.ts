/**
 * The offline matcher's built-in words. Phrases are written normalized (see
 * normalize.ts: lowercase, contractions expanded). A flow adds its own per
 * category through `synonyms`.
 */

/** Phrases for common category names, used when a question has a category of that name. */
export const COMMON_SYNONYMS: Record<string, readonly string[]> = {
  yes: [
    'yes', 'yeah', 'yea', 'yep', 'yup', 'ya', 'yah', 'yess', 'yse', 'ys', 'yeh', 'yas', 'ye', 'y', 'aye', 'sure', 'certainly',
    'correct', 'affirmative', 'absolutely', 'definitely', 'of course', 'indeed', 'uh huh', 'yes please',
    'we do', 'i do', 'it does', 'they do', 'he does', 'she does', 'we have', 'we have it', 'we have that',
    'that is right', 'that is correct',
    'i think so', 'i believe so', 'positive', 'true', 'totally', 'for sure', 'we got it', 'got it',
  ],
  no: [
    'no', 'nope', 'nah', 'noo', 'n', 'none', 'negative', 'never', 'not at all', 'no way', 'not really', 'not yet',
    'absolutely not', 'definitely not', 'of course not', 'certainly not', 'sure not', 'really not',
    'we do not', 'i do not', 'it does not', 'they do not', 'he does not', 'she does not', 'does not',
    'do not have', 'we have not', 'there is not', 'there are not', 'there were not', 'there was not',
    'not that i know of', 'not as far as i know', 'nothing', 'false', 'nada',
  ],
  partial: [
    'partial', 'partially', 'partly', 'in part', 'some', 'somewhat', 'sort of', 'kind of', 'a bit',
    'a little', 'mixed', 'some of it', 'some of them', 'here and there', 'on and off', 'off and on',
    'sometimes', 'occasionally', 'a few',
  ],
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
  // Qualifiers: the answer holds only in part.
  'mostly', 'mainly', 'largely', 'almost', 'nearly', 'except', 'apart from', 'other than', 'besides',
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
];

/** Words that negate a mention that follows them closely in the same clause. */
export const NEGATORS: readonly string[] = ['not', 'no', 'never', 'without', 'nor', 'neither', 'hardly', 'non'];

/** Words that may stand between a negator and what it negates ("not an emergency", "not really urgent"). */
export const NEGATION_FILLERS: readonly string[] = [
  'a', 'an', 'the', 'really', 'exactly', 'quite', 'very', 'so', 'too', 'any', 'by', 'via', 'through', 'over',
  'for', 'of', 'is', 'it', 'this', 'that', 'be', 'to', 'in', 'at', 'on', 'as', 'with', 'my', 'their', 'his', 'her',
  'they', 'we', 'have', 'has', 'need', 'want', 'like', 'use', 'prefer', 'please', 'do', 'does', 'send',
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
  'will you', 'can it be',
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
