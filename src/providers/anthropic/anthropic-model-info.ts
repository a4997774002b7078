import type { ModelCapabilities } from '../../core/index.ts';

/** What rxagent knows about a Claude model from its id. */
export interface AnthropicModelInfo {
  capabilities: ModelCapabilities;
  /** The model's largest `max_tokens`, the default when a request names none. */
  maxOutputTokens: number;
  /** Prompt plus output tokens the model takes: 200,000 for Claude 2.1 and later, 100,000 before. */
  contextWindow: number;
  /** Whether the id names a Claude family and version rxagent recognises. */
  knownModel: boolean;
  /** The model refuses `temperature` and `top_p` together (Claude Opus 4.1, and every 4.5 and later). */
  exclusiveSampling: boolean;
}

/** The family and version in an id: `claude-sonnet-4-5-…` (new naming) or `claude-3-5-sonnet-…` (old). */
function parseFamily(modelId: string): { family: string; version: number } | undefined {
  const id = modelId.toLowerCase();
  const modern = /claude-(opus|sonnet|haiku)-(\d+)(?:[-.](\d)(?!\d))?/.exec(id);
  if (modern)
    return { family: modern[1] as string, version: Number(modern[2]) + Number(modern[3] ?? 0) / 10 };
  const legacy = /claude-(\d+)(?:[-.](\d))?-(opus|sonnet|haiku)/.exec(id);
  if (legacy)
    return { family: legacy[3] as string, version: Number(legacy[1]) + Number(legacy[2] ?? 0) / 10 };
  return undefined;
}

function maxOutputOf(family: string, version: number): number {
  if (version >= 4) return family === 'opus' && version < 4.5 ? 32_000 : 64_000;
  if (version >= 3.7) return 64_000;
  if (version >= 3.5) return 8_192;
  return 4_096;
}

/**
 * Capabilities and output limit of a Claude model, by family and version: every Claude 3+ model
 * takes tools and images and answers JSON (through a forced tool); extended thinking exists from
 * Claude 3.7 on. `claude-2`/`claude-instant` have neither tools nor vision. An id rxagent cannot
 * read (a proxy alias) is taken for a current model with a 4,096-token default.
 * @example anthropicModelInfo('claude-sonnet-4-5').maxOutputTokens // → 64000
 */
export function anthropicModelInfo(modelId: string): AnthropicModelInfo {
  const parsed = parseFamily(modelId);
  if (parsed === undefined) {
    const legacy = /claude-(instant|2)/i.test(modelId);
    return {
      capabilities: { streaming: true, tools: !legacy, vision: !legacy, json: !legacy, reasoning: !legacy },
      maxOutputTokens: 4_096,
      contextWindow: legacy && !/claude-2\.1/i.test(modelId) ? 100_000 : 200_000,
      knownModel: legacy,
      exclusiveSampling: false,
    };
  }
  return {
    capabilities: {
      streaming: true,
      tools: true,
      vision: true,
      json: true,
      reasoning: parsed.version >= 3.7,
    },
    maxOutputTokens: maxOutputOf(parsed.family, parsed.version),
    contextWindow: 200_000,
    knownModel: true,
    exclusiveSampling: parsed.version >= 4.5 || (parsed.family === 'opus' && parsed.version >= 4.1),
  };
}
