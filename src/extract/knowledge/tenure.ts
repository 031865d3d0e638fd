/**
 * How people say whether they own or rent their home (issue 26: general
 * knowledge beyond a flow author's synonyms), in English and the major European
 * languages, as normalized tokens (tokenize: lower case, no accents, "it's" is
 * "it s"). Kept by hand: a closed, everyday vocabulary.
 */
const words = (phrases: readonly string[]) => phrases.map((p) => p.split(' '));

/** Owning it: "it's ours", "we're the homeowners", "we have a mortgage". (Not "owned" or "bought": "owned by my dad", "bought in 2015".) */
export const OWNING = words([
  'ours', 'mine', 'our own', 'my own', 'homeowner', 'homeowners', 'home owner', 'home owners', 'house owner', 'owner occupier',
  'owner occupiers', 'owner occupied', 'we own', 'i own', 'own it', 'mortgage', 'mortgaged', 'paid off', 'gehort uns', 'gehort mir', 'eigentum', 'eigentumer', 'eigentumerin', 'proprietaire', 'proprietaires',
  'propietario', 'propietaria', 'propietarios', 'es nuestra', 'es mia', 'es nuestro', 'proprietario', 'proprietari', 'eigenaar',
]);

/** Renting it: "we rent", "I'm a tenant", "it's a council flat". */
export const RENTING = words([
  'rent', 'rents', 'rented', 'renting', 'rental', 'tenant', 'tenants', 'tenancy', 'council house', 'council flat',
  'housing association', 'social housing', 'zur miete', 'miete', 'mieter', 'mieterin', 'mieten', 'gemietet', 'alquiler',
  'alquilado', 'alquilada', 'alquilo', 'inquilino', 'inquilina', 'inquilinos', 'locataire', 'locataires', 'en location', 'affitto',
  'in affitto', 'affittuario', 'huur', 'huren', 'huurder',
]);

/** Renting it out, or letting it: the one who rents out owns, but the words read both ways. */
export const LETTING = words(['rent out', 'rent it out', 'rented out', 'renting out', 'let it out', 'let out', 'sublet', 'subletting', 'lodger', 'lodgers']);
