/**
 * Common category names of intake flows and the everyday words for them
 * (issue 26: general knowledge beyond a flow author's synonyms): what went
 * wrong with an order, why a patient calls, how a visit is held, an adult or a
 * minor. Kept by hand, in English and the major European languages; each word
 * means its category whatever the flow. Keys are category names as normalized
 * ("wrong_item" is "wrong item"); none of them ever answers a question not being asked.
 */
export const COMMON_ANSWERS: Readonly<Record<string, readonly string[]>> = {
  damaged: [
    'damaged', 'broken', 'arrived broken', 'cracked', 'smashed', 'shattered', 'dented', 'scratched', 'torn', 'ripped',
    'in pieces', 'arrived in pieces', 'defective', 'faulty', 'does not work', 'doesnt work', 'not working', 'will not turn on',
    'does not turn on', 'dead on arrival', 'crushed', 'leaking', 'roto', 'rota', 'llego roto', 'danado', 'kaputt', 'beschadigt',
    'beschädigt', 'casse', 'abime', 'endommage', 'rotto', 'danneggiato', 'stuk', 'kapot',
  ],
  late: [
    'late', 'arrived late', 'delayed', 'too late', 'took too long', 'took forever', 'took ages', 'did not arrive on time',
    'not on time', 'overdue', 'still waiting', 'tarde', 'llego tarde', 'en retard', 'verspatet', 'zu spat', 'in ritardo', 'te laat',
    'atrasado',
  ],
  'wrong item': [
    'wrong item', 'wrong product', 'wrong size', 'wrong colour', 'wrong color', 'wrong model', 'not what i ordered',
    'incorrect item', 'different item', 'sent the wrong', 'falscher artikel', 'producto equivocado', 'mauvais article',
  ],
  'test results': [
    'test results', 'results', 'lab results', 'blood test', 'blood work', 'bloodwork', 'biopsy', 'mri', 'ct scan', 'scan',
    'x ray', 'xray', 'ultrasound', 'lab work', 'my labs', 'befund', 'resultados', 'resultats',
  ],
  'prescription refill': [
    'prescription', 'refill', 'renew my prescription', 'repeat prescription', 'my pills', 'more pills', 'out of pills',
    'running low', 'ran out of', 'medication', 'meds', 'rezept', 'receta', 'ordonnance',
  ],
  // A return for no fault of the order: the "other" reason where the others are faults (damaged, late, wrong).
  other: ['changed my mind', 'change of mind', 'no longer need it', 'do not need it anymore', 'do not want it anymore', 'did not like it', 'do not like it'],
  billing: ['billing', 'bill', 'invoice', 'payment', 'charge', 'copay', 'co pay', 'statement', 'rechnung', 'factura', 'facture', 'fattura'],
  telehealth: [
    'telehealth', 'video call', 'video visit', 'video appointment', 'facetime', 'zoom', 'online appointment', 'virtual visit',
    'virtual appointment', 'videollamada', 'videoanruf', 'teleconsulta', 'telemedicine',
  ],
  'follow up': ['follow up', 'followup', 'check up after', 'post surgery check', 'post op', 'post op check', 'recheck', 'control visit', 'kontrolle'],
  adult: ['adult', 'grown up', 'grownup', 'senior', 'senior citizen', 'pensioner', 'elderly', 'erwachsen', 'erwachsener', 'adulto', 'adulta', 'adulte'],
  minor: [
    'minor', 'child', 'kid', 'teen', 'teenager', 'toddler', 'baby', 'infant', 'middle schooler', 'high schooler', 'schoolboy',
    'schoolgirl', 'in high school', 'in middle school', 'in primary school', 'in kindergarten', 'menor', 'enfant', 'mineur', 'minderjahrig', 'bambino',
  ],
};
