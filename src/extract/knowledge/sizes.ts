/**
 * Sizes and levels of cover (issue 26: general knowledge beyond a flow
 * author's synonyms): the words people use for a small, medium or large
 * vehicle or room, and for basic, full or no insurance, in English and the
 * major European languages. Kept by hand: no maintained list of them exists.
 * Keys are category names as normalized; none of them ever answers a
 * question not being asked.
 */
export const SIZES: Readonly<Record<string, readonly string[]>> = {
  small: [
    'small', 'compact', 'mini', 'tiny', 'tiniest', 'smallest', 'little', 'economy', 'city car', 'subcompact', 'small one',
    'klein', 'kleines', 'kleiner', 'pequeno', 'pequena', 'petit', 'petite', 'piccolo', 'piccola', 'klein auto',
  ],
  medium: [
    'medium', 'mid size', 'midsize', 'mid sized', 'midsized', 'mid range', 'intermediate', 'standard size', 'average size',
    'normal size', 'regular size', 'mittel', 'mittelgross', 'mittelklasse', 'mediano', 'mediana', 'moyen', 'moyenne', 'medio',
  ],
  large: ['large', 'big', 'bigger', 'biggest', 'largest', 'full size', 'fullsize', 'gross', 'grande'],
  suv: ['suv', '4x4', 'four by four', 'four wheel drive', '4wd', 'awd', 'all wheel drive', 'jeep', 'crossover', 'off roader', 'geländewagen', 'gelandewagen', 'todoterreno'],
  van: [
    'van', 'minivan', 'mini van', 'minibus', 'people carrier', 'people mover', 'transporter', 'camper', 'campervan', 'moving van',
    '7 seater', 'seven seater', '8 seater', 'eight seater', '9 seater', 'nine seater', 'kleinbus', 'bus', 'furgoneta', 'camionnette',
  ],
};

/** Insurance cover by level. */
export const COVER: Readonly<Record<string, readonly string[]>> = {
  full: [
    'full', 'full cover', 'full coverage', 'fully covered', 'fully comprehensive', 'comprehensive', 'full insurance', 'zero excess',
    'no excess', 'no deductible', 'zero deductible', 'everything covered', 'all covered', 'max cover', 'maximum cover',
    'maximum coverage', 'the most cover', 'premium cover', 'full protection', 'vollkasko', 'seguro completo', 'completo', 'todo riesgo',
    'tous risques', 'kasko',
  ],
  basic: ['basic', 'basic cover', 'minimum cover', 'minimal cover', 'the minimum', 'the basic one', 'basico', 'basica', 'teilkasko', 'de base', 'base'],
  none: [
    'none', 'no insurance', 'no cover', 'no coverage', 'without insurance', 'without cover',
    'do not need insurance', 'do not need cover', 'do not want insurance', 'do not want any', 'do not need any', 'no thanks',
    'sin seguro', 'ohne versicherung', 'keine versicherung', 'sans assurance',
  ],
};
