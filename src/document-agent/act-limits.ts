import { z } from 'zod';
import { DEFAULT_ACT_LIMITS, type ActLimits } from '../../machines/document-agent.js';
import { DEFAULT_SETTLE_TIMEOUT_MS } from '../workflow/session.js';

/**
 * The longest an act may be given: under the runtime's wait for a turn to
 * settle (120 s), which would otherwise end a longer act first, as a 500.
 */
export const MAX_ACT_MS = DEFAULT_SETTLE_TIMEOUT_MS - 20_000;

/**
 * A document agent's limits per act (a message, or an answer to a
 * confirmation) as a host sets them (each optional; the rest keep
 * `DEFAULT_ACT_LIMITS`): the check of a settings file or an option.
 */
export const ActLimitsSchema = z.strictObject({
  maxActMs: z
    .number()
    .int()
    .min(1)
    .max(MAX_ACT_MS)
    .describe(`Wall time of one message of the document agent, in ms (default 60,000, at most ${MAX_ACT_MS}); a model call or web search under way is stopped at it`)
    .optional(),
}) satisfies z.ZodType<Partial<ActLimits>>;

/** The act limits a host gave, checked, over the defaults; `who` names the option in the error (a RangeError saying what is wrong). */
export function actLimitsOf(input: Partial<ActLimits> | undefined, who: string): ActLimits {
  const parsed = ActLimitsSchema.safeParse(input ?? {});
  if (!parsed.success) throw new RangeError(`${who}: ${parsed.error.issues.map((i) => `actLimits.${i.path.join('.')}: ${i.message}`).join('; ')}`);
  return { ...DEFAULT_ACT_LIMITS, ...parsed.data };
}
