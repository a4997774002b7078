import { InvalidRequestError } from '../core/index.ts';

const DAY = 86_400_000;

/** Each numeric option of `durableRuns`: its lowest and highest value (whole numbers). */
const BOUNDS = {
  // BullMQ keeps a delayed job's due time in a score that stays exact only up to about 2039.
  approvalTimeoutMs: [1, 366 * DAY],
  lockMs: [100, DAY],
  stalledIntervalMs: [100, DAY],
  maxStalledCount: [0, 1_000_000],
  retainMs: [1, 366 * DAY],
  sessionWaitMs: [10, DAY],
  workerLostMs: [1, 30 * DAY],
  maxRunsPerSession: [1, 1_000_000],
  maxIdleAttempts: [1, 1_000_000],
  closeGraceMs: [0, DAY],
} as const;

/**
 * Checks `durableRuns`'s numeric options before anything is opened.
 * @throws InvalidRequestError naming the option that is not a whole number in its range
 */
export function checkDurableOptions(options: Partial<Record<keyof typeof BOUNDS, unknown>>): void {
  for (const [option, [min, max]] of Object.entries(BOUNDS)) {
    const value = options[option as keyof typeof BOUNDS];
    if (value === undefined) continue;
    if (!Number.isSafeInteger(value) || (value as number) < min || (value as number) > max)
      throw new InvalidRequestError(
        `rxagent/bullmq: ${option} must be a whole number from ${min} to ${max}, not ${String(value)}`,
        { option },
      );
  }
}
