/**
 * General knowledge the readers use beyond a flow author's synonyms (issue
 * 26), one module per kind, each naming its source: yes/no in the major
 * languages (glibc locales), frequency and timing (WordNet adverbs), work
 * (WordNet job titles). Plain data: it runs in the browser.
 */
export { YES_WORDS, NO_WORDS, readYesNo } from './yes-no.js';
export { FREQUENCY } from './frequency.js';
export { TIMING } from './timing.js';
export { EMPLOYMENT, JOB_TITLES } from './occupations.js';
export { COVER, SIZES } from './sizes.js';
export { HOUSING } from './housing.js';
export { COMMON_ANSWERS } from './common-answers.js';
export { ROLES } from './roles.js';
export { BANKING } from './banking.js';
