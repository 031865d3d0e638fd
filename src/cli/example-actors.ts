import { fromPromise } from 'xstate';
import type { ActionInput } from '../flow/index.js';

/**
 * The actors the example flows' action nodes name, so that `npm start` and
 * `gateflow chat led-sales` run them with nothing to configure. A real host
 * registers its own (an HTTP call to a pricing service, say).
 */

/** A price for the LED project: one fixture per 50 m² of court (12 elsewhere), at 0.9 per watt. */
export const priceLookup = fromPromise<{ total: number; fixtures: number; currency: string }, ActionInput>(async ({ input }) => {
  const wattage = input.answers.wattage;
  if (typeof wattage !== 'number') throw new Error('priceLookup needs answers.wattage (a number)');
  const area = input.answers.court_size;
  const fixtures = typeof area === 'number' ? Math.max(4, Math.ceil(area / 50)) : 12;
  const currency = typeof input.params.currency === 'string' ? input.params.currency : 'EUR';
  return { total: Math.round(fixtures * wattage * 0.9), fixtures, currency };
});

export const EXAMPLE_ACTORS = { priceLookup };
