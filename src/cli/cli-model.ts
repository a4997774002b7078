import type { ChatModel } from '../core/index.ts';
import { anthropic } from '../providers/anthropic/index.ts';
import { gemini } from '../providers/gemini/index.ts';
import { ollama } from '../providers/ollama/index.ts';
import { openai, openaiCompatible } from '../providers/openai/index.ts';
import { CliError } from './cli-error.ts';
import type { CliOptions } from './cli-options.ts';
import { demoModel } from './demo-model.ts';

interface ProviderEntry {
  defaultModel: string;
  /** The variables that can hold the key; none for a keyless provider. */
  keys: readonly string[];
  create(model: string, baseURL: string | undefined): ChatModel;
  /** A server of one's own (a base URL) may need no key. */
  keylessWithBaseURL?: (model: string, baseURL: string) => ChatModel;
}

const providers: Record<string, ProviderEntry> = {
  openai: {
    defaultModel: 'gpt-4o-mini',
    keys: ['OPENAI_API_KEY'],
    create: (model, baseURL) => openai(model, baseURL ? { baseURL } : {}),
    // LM Studio, vLLM, llama.cpp: OpenAI-compatible, no key; none is sent.
    keylessWithBaseURL: (model, baseURL) => openaiCompatible(model, { baseURL }),
  },
  anthropic: {
    defaultModel: 'claude-sonnet-4-5',
    keys: ['ANTHROPIC_API_KEY'],
    create: (model, baseURL) => anthropic(model, baseURL ? { baseURL } : {}),
  },
  gemini: {
    defaultModel: 'gemini-2.5-flash',
    keys: ['GEMINI_API_KEY', 'GOOGLE_GENERATIVE_AI_API_KEY'],
    create: (model, baseURL) => gemini(model, baseURL ? { baseURL } : {}),
  },
  ollama: {
    defaultModel: 'llama3.2',
    keys: [],
    create: (model, baseURL) => ollama(model, baseURL ? { baseURL } : {}),
  },
};

/**
 * The model the options ask for: the bundled demo, or a provider's model when its key is set.
 * @throws CliError naming the variable to set, or the unknown provider
 */
export function cliModel(options: CliOptions, env: NodeJS.ProcessEnv = process.env): ChatModel {
  if (options.demo) return demoModel();
  const entry = providers[options.provider];
  if (!entry) {
    throw new CliError(
      `unknown provider "${options.provider}" (one of: ${Object.keys(providers).join(', ')})`,
    );
  }
  const hasKey = entry.keys.length === 0 || entry.keys.some((name) => env[name]);
  if (!hasKey && options.baseURL !== undefined && entry.keylessWithBaseURL)
    return entry.keylessWithBaseURL(options.model ?? entry.defaultModel, options.baseURL);
  if (!hasKey) {
    throw new CliError(`no API key: set ${entry.keys.join(' or ')}, or run with --demo for an offline model`);
  }
  return entry.create(options.model ?? entry.defaultModel, options.baseURL);
}
