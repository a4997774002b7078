import type { ModelCapabilities } from '../../core/index.ts';

const family = (modelId: string) => modelId.slice(modelId.lastIndexOf('/') + 1).toLowerCase();

/**
 * What a Bedrock model can do through Converse, by family: Claude 3+ (tools, vision; reasoning
 * from 3.7 and the 4 series), Amazon Nova (tools; vision except Micro), Llama 3.1+ (tools;
 * vision for 3.2 11B/90B and Llama 4), Mistral Large / Pixtral, DeepSeek R1 (reasoning, no tools).
 * Unknown families get tools and nothing else. Converse has no JSON mode: `json` is false.
 */
export function bedrockCapabilities(modelId: string): ModelCapabilities {
  const id = family(modelId);
  const caps: ModelCapabilities = {
    streaming: true,
    tools: true,
    vision: false,
    json: false,
    reasoning: false,
  };
  if (id.includes('anthropic.claude')) {
    caps.vision = !id.includes('claude-instant') && !id.includes('claude-v2');
    caps.tools = caps.vision;
    caps.reasoning = /claude-3-7|claude-(?:sonnet|opus|haiku)-4/.test(id);
  } else if (id.includes('amazon.nova')) {
    caps.vision = !id.includes('nova-micro');
    caps.tools = !/nova-(?:canvas|reel|sonic)/.test(id);
  } else if (id.includes('meta.llama')) {
    caps.tools = /llama3-[123]|llama4/.test(id) && !/llama3-(?:8b|70b)/.test(id);
    caps.vision = /llama3-2-(?:11b|90b)|llama4/.test(id);
  } else if (id.includes('mistral.')) {
    caps.tools = /mistral-large|pixtral|mistral-small/.test(id);
    caps.vision = id.includes('pixtral');
  } else if (id.includes('deepseek.')) {
    caps.tools = false;
    caps.reasoning = /r1/.test(id);
  }
  return caps;
}
