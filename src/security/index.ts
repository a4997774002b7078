export type { Actor } from './actor.ts';
export type { ArgumentValidator, ArgumentValidatorContext } from './argument-validator.ts';
export type { ContentFilter, ContentFilterContext } from './content-filter.ts';
export { type MemoryRateLimiterOptions, memoryRateLimiter } from './memory-rate-limiter.ts';
export type { PolicyDecision } from './policy-decision.ts';
export type { RateLimitDecision, RateLimiter } from './rate-limiter.ts';
export { redactContent } from './redact-content.ts';
export { type PolicyRequest, SecurityPolicy, type SecurityPolicyOptions } from './security-policy.ts';
