import { z } from 'zod';
import type { ActLimits } from '../../machines/document-agent.js';

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
    .max(86_400_000)
    .describe('Wall time of one message of the document agent, in ms (default 60,000); a model call or web search under way is stopped at it')
    .optional(),
}) satisfies z.ZodType<Partial<ActLimits>>;
