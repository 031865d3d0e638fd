/**
 * Thrown wherever the offline reader cannot be sure of the text; the entry
 * (`readGoalOffline`) turns it into an abstention with this reason. Grammar
 * rules return null to let another rule try; semantic doubts (a reference to
 * no node, two values asked at once where no contradiction can be recorded)
 * end the reading at once.
 */
export class Unsure extends Error {
  override readonly name = 'Unsure';
}

export function unsure(reason: string): never {
  throw new Unsure(reason);
}
