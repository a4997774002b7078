import { z } from 'zod';
import { defineTool } from '../../src/index.ts';

/** Calls of the weather tool, in the order they started. */
export const started: string[] = [];

/** A weather tool; Rome answers after `romeDelayMs` so parallel calls finish out of order. */
export function weatherTool(options: { romeDelayMs?: number } = {}) {
  return defineTool({
    name: 'get_weather',
    description: 'Current weather for a city.',
    input: z.object({ city: z.string().min(1) }),
    execute: async ({ city }, { signal }) => {
      started.push(city);
      if (city === 'Rome' && options.romeDelayMs) {
        await new Promise((resolve, reject) => {
          const timer = setTimeout(resolve, options.romeDelayMs);
          signal.addEventListener('abort', () => {
            clearTimeout(timer);
            reject(new Error('aborted'));
          });
        });
      }
      return { city, tempC: city === 'Rome' ? 24 : 18 };
    },
  });
}
