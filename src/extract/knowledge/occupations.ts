/**
 * Work: employment categories and the words for them (issue 26: general
 * knowledge beyond a flow author's synonyms). Job titles come from WordNet
 * (`wordnet.generated.ts`: hyponyms of worker, professional, employee, ...
 * with a tagged use) and a hand list of today's titles WordNet lacks; a job
 * title says "employed" only with an employer ("nurse at the hospital",
 * "developer for a bank"): alone it may be a freelancer's. Keys are category
 * names as normalized.
 */
import { WORDNET_JOBS } from './wordnet.generated.js';

/** WordNet titles left out: they are not jobs people state, or read two ways ("a veteran at this", "a guide for"). */
const NOT_A_JOB = new Set([
  'johnny', 'johnny reb', 'reb', 'rebel', 'instrument', 'fresh fish', 'cannon fodder', 'underling', 'subordinate', 'ordinary',
  'mate', 'private', 'major', 'principal', 'guide', 'critic', 'collector', 'specialist', 'helper', 'veteran', 'practitioner',
  'official', 'squire', 'peasant', 'hunter', 'fisher', 'puncher', 'lasher', 'quack', 'extern', 'interne', 'auxiliary',
  'deputy', 'demonstrator', 'trooper', 'redcoat', 'recruit', 'servant', 'courtier', 'beadle', 'selectman', 'commander',
  'hard worker', 'working girl', 'pistoleer', 'mud digger', 'body servant', 'manservant', 'fille de chambre', 'color bearer',
  'crew member', 'medical man', 'military man', 'enlisted man', 'hired man', 'trained worker', 'delivery boy', 'office boy',
  'newsboy', 'busboy', 'lackey', 'cowpuncher', 'johnny', 'diagnostician', 'pencil pusher', 'educator', 'justice', 'counsel',
]);

/** Today's titles WordNet lacks or spells otherwise. */
const MODERN_JOBS = [
  'accountant', 'administrator', 'analyst', 'architect', 'assistant', 'baker', 'banker', 'barista', 'builder', 'butcher',
  'cashier', 'chef', 'civil servant', 'cleaner', 'consultant', 'designer', 'developer', 'driver', 'electrician', 'engineer',
  'firefighter', 'manager', 'paramedic', 'police officer', 'programmer', 'researcher', 'sales assistant', 'saleswoman',
  'scientist', 'software engineer', 'nurse', 'doctor', 'teacher', 'lawyer', 'mechanic', 'pilot', 'plumber', 'carpenter',
  'waiter', 'waitress', 'secretary', 'technician', 'soldier', 'receptionist', 'pharmacist', 'professor', 'lecturer', 'clerk',
  'cook', 'bartender', 'officer', 'caregiver', 'carer', 'care worker', 'social worker', 'dental assistant', 'hairdresser',
  'warehouse worker', 'delivery driver', 'courier', 'project manager', 'product manager', 'data scientist', 'web developer',
];

/** Job titles as the matcher reads them. */
export const JOB_TITLES: readonly string[] = [...new Set([...WORDNET_JOBS.filter((j) => !NOT_A_JOB.has(j)), ...MODERN_JOBS])].sort();

/** Employment words by the category names they answer. */
export const EMPLOYMENT: Readonly<Record<string, readonly string[]>> = {
  employed: [
    'employed', 'full time', 'fulltime', 'part time', 'parttime', 'i work at', 'i work for', 'i work in', 'work full time',
    'work part time', 'working full time', 'working part time', 'employee', 'salaried', 'on payroll', 'permanent contract',
    'fixed contract', 'have a job', 'i have a job', 'employed full time', 'employed part time', 'angestellt', 'empleado',
    // Working somewhere now, or a job just begun ("I'm working at a warehouse", "started a new job on monday").
    // ("A new job" alone is no answer: "looking for a new job".)
    'i am working at', 'i am working for', 'i am working in', 'working at a', 'working at the', 'got a job', 'got a new job',
    'started a new job', 'started a job', 'have a new job', 'back at work', 'back in work', 'in work',
    'empleada', 'salarie', 'salariee', 'dipendente',
    // Employed by the state, whatever the job.
    'civil servant', 'public servant', 'government employee', 'state employee', 'beamter', 'beamtin', 'funcionario', 'funcionaria',
    'fonctionnaire', 'ambtenaar', 'statale',
    // A title with its employer.
    ...JOB_TITLES.flatMap((job) => [`${job} at`, `${job} for`]),
  ],
  'self employed': [
    'self employed', 'selfemployed', 'freelance', 'freelancer', 'freelancing', 'contractor', 'independent contractor',
    'my own business', 'own business', 'run my own', 'i run a', 'business owner', 'own boss', 'my own boss', 'sole trader',
    'sole proprietor', 'i invoice', 'invoice my own clients', 'self employment', 'entrepreneur', 'founder', 'work for myself',
    'i work for myself', 'working for myself', 'i am working for myself', 'selbststandig', 'selbstandig', 'freiberufler', 'freiberuflich', 'autonomo', 'autonoma',
    'independant', 'auto entrepreneur', 'libero professionista', 'zzp',
  ],
  student: [
    'student', 'students', 'studying', 'i study', 'at university', 'at uni', 'uni student', 'university student',
    'college student', 'in college', 'phd', 'phd student', 'doing my masters', 'masters student', 'my masters',
    'doing my phd', 'bachelor student', 'grad student', 'graduate student', 'undergrad', 'estudiante', 'etudiant',
    'etudiante', 'studentin', 'studente', 'studentessa', 'in school', 'at school', 'first year at uni', 'still at uni',
  ],
  retired: ['retired', 'aposentado', 'aposentada', 'en retraite', 'a la retraite', 'in pensione', 'retiree', 'pensioner', 'on a pension', 'on pension', 'jubilado', 'jubilada', 'retraite', 'retraitee', 'rentner', 'rentnerin', 'in rente', 'pensionado', 'pensionato', 'gepensioneerd'],
  unemployed: [
    'unemployed', 'jobless', 'between jobs', 'looking for work', 'looking for a job', 'job hunting', 'job seeker',
    'jobseeker', 'out of work', 'not working', 'no job', 'without a job', 'without work', 'not employed', 'lost my job',
    'on benefits', 'arbeitslos', 'desempleado', 'desempleada', 'parado', 'parada', 'chomeur', 'chomeuse', 'au chomage',
    'disoccupato', 'werkloos', 'i do not work', 'i am not working', 'no work at the moment',
  ],
  'not working': [
    'i do not work', 'i am not working', 'no work at the moment',
    'unemployed', 'jobless', 'between jobs', 'looking for work', 'looking for a job', 'job hunting', 'job seeker',
    'jobseeker', 'out of work', 'not working', 'no job', 'without a job', 'without work', 'not employed', 'lost my job',
    'on benefits', 'arbeitslos', 'desempleado', 'desempleada', 'parado', 'parada', 'chomeur', 'chomeuse', 'au chomage',
    'disoccupato', 'werkloos',
    'unemployed', 'stay at home', 'stay at home mom', 'stay at home dad', 'homemaker', 'housewife', 'househusband', 'not in work', 'do not have a job', 'have no job', 'without a job', 'no job', 'jobless'],
};
