import type { Actor } from './actor.ts';
import type { ArgumentValidator } from './argument-validator.ts';
import type { ContentFilter, ContentFilterContext } from './content-filter.ts';
import type { PolicyDecision } from './policy-decision.ts';
import type { RateLimiter } from './rate-limiter.ts';
import { toolNameMatcher } from './tool-pattern.ts';

/** Options of `SecurityPolicy`. Tool names may use `*` as a wildcard (`fs__*`). */
export interface SecurityPolicyOptions {
  /** Only these tools may be offered and called. @default every tool */
  allow?: readonly string[];
  /** These tools may never be offered or called; wins over `allow`. */
  deny?: readonly string[];
  /** Extra checks on the arguments, per tool name or pattern. */
  validators?: Readonly<Record<string, ArgumentValidator | readonly ArgumentValidator[]>>;
  /** Limits calls per actor and tool (key from `rateLimitKey`). */
  rateLimiter?: RateLimiter;
  /** @default JSON.stringify([actor?.id ?? null, toolName]) */
  rateLimitKey?: (actor: Actor | undefined, toolName: string) => string;
  /** Rewrites what the model sees of each tool outcome (e.g. `redactContent([...])`). */
  contentFilter?: ContentFilter;
}

/** A call the policy is asked about. */
export interface PolicyRequest {
  toolName: string;
  arguments: Readonly<Record<string, unknown>>;
  actor: Actor | undefined;
}

const defaultKey = (actor: Actor | undefined, toolName: string): string =>
  JSON.stringify([actor?.id ?? null, toolName]);

/**
 * Which tools may run, with which arguments, how often: allow and deny lists, per-tool argument
 * validators, a rate limiter per actor and tool, and a content filter for results.
 * @example new SecurityPolicy({ deny: ['shell'], rateLimiter: memoryRateLimiter({ limit: 60, windowMs: 60_000 }) })
 */
export class SecurityPolicy {
  readonly #allow: ((name: string) => boolean) | undefined;
  readonly #deny: (name: string) => boolean;
  readonly #validators: readonly { matches: (name: string) => boolean; validate: ArgumentValidator }[];
  readonly #rateLimiter: RateLimiter | undefined;
  readonly #rateLimitKey: (actor: Actor | undefined, toolName: string) => string;
  readonly #contentFilter: ContentFilter | undefined;

  constructor(options: SecurityPolicyOptions = {}) {
    this.#allow = options.allow ? toolNameMatcher(options.allow) : undefined;
    this.#deny = toolNameMatcher(options.deny ?? []);
    this.#validators = Object.entries(options.validators ?? {}).flatMap(([pattern, v]) => {
      const matches = toolNameMatcher([pattern]);
      return (Array.isArray(v) ? v : [v]).map((validate: ArgumentValidator) => ({ matches, validate }));
    });
    this.#rateLimiter = options.rateLimiter;
    this.#rateLimitKey = options.rateLimitKey ?? defaultKey;
    this.#contentFilter = options.contentFilter;
  }

  /** Whether the tool may be offered to the model and called at all. */
  isAllowed(toolName: string): boolean {
    if (this.#deny(toolName)) return false;
    return this.#allow ? this.#allow(toolName) : true;
  }

  /** Checks allow/deny, then the argument validators, then takes a rate-limit token. */
  async check(request: PolicyRequest): Promise<PolicyDecision> {
    const { toolName, actor } = request;
    if (!this.isAllowed(toolName)) return { type: 'deny', reason: `Tool ${toolName} is not allowed` };
    for (const { matches, validate } of this.#validators) {
      if (!matches(toolName)) continue;
      let reason: string | undefined;
      try {
        reason = await validate(request.arguments, { toolName, actor });
      } catch {
        reason = `The arguments of ${toolName} did not pass the security checks`;
      }
      if (reason !== undefined) return { type: 'deny', reason };
    }
    if (this.#rateLimiter) {
      const decision = await this.#rateLimiter.consume(this.#rateLimitKey(actor, toolName));
      if (!decision.allowed) {
        const seconds = Math.max(1, Math.ceil(decision.retryAfterMs / 1000));
        return {
          type: 'rate-limited',
          reason: `Rate limit reached for ${toolName}; retry in ${seconds} s`,
          retryAfterMs: decision.retryAfterMs,
        };
      }
    }
    return { type: 'allow' };
  }

  /** Runs the content filter, if any, over the text a tool outcome shows the model. */
  filterContent(content: string, context: ContentFilterContext): string | Promise<string> {
    return this.#contentFilter ? this.#contentFilter(content, context) : content;
  }
}
