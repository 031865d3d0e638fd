/**
 * Animals people keep, and the people around them (issue 26: general knowledge
 * beyond a flow author's synonyms): "yes, a very loud parrot" asked whether an
 * alarm is fitted names a pet, not an alarm; "yes, a goldfish" asked about pets
 * names one. Kept by hand (WordNet's hyponyms of "animal" run to thousands of
 * species nobody keeps), normalized (lower case, no accents), singular.
 */
export const ANIMALS: ReadonlySet<string> = new Set([
  'dog', 'puppy', 'pup', 'cat', 'kitten', 'kitty', 'rabbit', 'bunny', 'hamster', 'guinea', 'gerbil', 'mouse', 'mice', 'rat',
  'ferret', 'chinchilla', 'hedgehog', 'bird', 'parrot', 'budgie', 'parakeet', 'canary', 'cockatiel', 'finch', 'chicken', 'hen',
  'duck', 'goose', 'fish', 'goldfish', 'snake', 'lizard', 'gecko', 'iguana', 'turtle', 'tortoise', 'frog', 'spider', 'tarantula',
  'horse', 'pony', 'donkey', 'goat', 'sheep', 'pig', 'cow', 'alpaca', 'llama', 'pet', 'animal', 'hund', 'katze', 'perro', 'gato',
  'chien', 'chat', 'cane', 'gatto',
]);
/** Words for the asked thing when a question is about animals. */
export const ABOUT_ANIMALS: ReadonlySet<string> = new Set(['pet', 'pets', 'animal', 'animals', 'dog', 'dogs', 'cat', 'cats']);

