import { z } from 'zod';
import type { GoalLimits } from '../../machines/task-agent.js';
import { DEFAULT_SETTLE_TIMEOUT_MS } from '../workflow/session.js';

/**
 * The longest one step of a goal (a turn: the person's message to the answer
 * or a question) may be given: under the runtime's wait for a turn to settle
 * (120 s), which would otherwise end a longer step first, as a bare 500.
 */
export const MAX_STEP_MS = DEFAULT_SETTLE_TIMEOUT_MS - 20_000;

const count = (what: string) => z.number().int().min(1).max(1_000_000).describe(what);
const ms = (what: string) => z.number().int().min(0).max(86_400_000).describe(what);

/**
 * A task agent's limits per goal as a host sets them (each optional; the rest
 * keep `DEFAULT_GOAL_LIMITS`): the check of a settings file or an option.
 */
export const GoalLimitsSchema = z.strictObject({
  maxSteps: count('Calls planned and tried per goal (default 100)').optional(),
  maxModelCalls: count('Model calls per goal (default 100)').optional(),
  maxToolCalls: count('Calls that reached a tool, per goal (default 100)').optional(),
  maxPromptBytes: z.number().int().min(1).max(1_000_000_000).describe('Bytes of prompts sent to the model per goal (default 2,000,000)').optional(),
  maxStepMs: z
    .number()
    .int()
    .min(0)
    .max(MAX_STEP_MS)
    .describe(`Wall time of one step of a goal, in ms (default 60,000, at most ${MAX_STEP_MS}); a model or tool call under way is stopped at it`)
    .optional(),
  maxGoalMs: ms("Wall time of a whole goal, its steps added up, in ms (default 180,000); a model or tool call under way is stopped at it").optional(),
}) satisfies z.ZodType<Partial<GoalLimits>>;
