/**
 * Bank account kinds (issue 26: general knowledge beyond a flow author's
 * synonyms): what people call a current, savings, student or joint account, in
 * English (British and American) and the major European languages. Kept by
 * hand, normalized; keys are category names as normalized.
 */
const CURRENT = [
  'current account', 'checking', 'checking account', 'chequing account', 'giro', 'giro account', 'girokonto', 'everyday account',
  'everyday banking', 'normal account', 'regular account', 'day to day account', 'cuenta corriente', 'compte courant', 'conto corrente',
  'betaalrekening', 'rachunek biezacy', 'conta corrente', 'lonekonto',
];
const SAVINGS = [
  'savings account', 'saving account', 'savings pot', 'put money aside', 'putting money aside', 'money aside',
  'for saving', 'for my savings', 'rainy day fund', 'sparkonto', 'tagesgeld', 'tagesgeldkonto', 'cuenta de ahorro',
  'cuenta de ahorros', 'compte epargne', 'livret', 'livret a', 'conto deposito', 'conto risparmio', 'spaarrekening',
  'rachunek oszczednosciowy', 'conta poupanca', 'poupanca',
];
const STUDENT = [
  'student account', 'studentenkonto', 'cuenta de estudiante', 'cuenta joven', 'compte etudiant', 'conto per studenti',
  'conto studenti', 'studentenrekening', 'konto studenckie', 'conta universitaria',
];
const JOINT = [
  'joint account', 'shared account', 'gemeinschaftskonto', 'cuenta conjunta', 'cuenta compartida', 'compte joint',
  'conto cointestato', 'conta conjunta',
];

/** Account kinds by the category names they answer. */
export const BANKING: Readonly<Record<string, readonly string[]>> = {
  'current account': CURRENT,
  'checking account': CURRENT,
  'savings account': SAVINGS,
  'student account': STUDENT,
  'joint account': JOINT,
};
