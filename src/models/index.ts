export { type FallbackModel, type FallbackOptions, fallback, isAvailabilityError } from './fallback.ts';
