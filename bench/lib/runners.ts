import type { ModeSpec } from './modes.ts';

/** A benchmarked client: a script in bench/runners run as `node <file> <mode> <origin>`. */
export interface RunnerInfo {
  name: string;
  file: string;
  wires: readonly ModeSpec['wire'][];
}

/** Every runner, raw first (the floor every ratio is taken against). */
export const RUNNERS: readonly RunnerInfo[] = [
  { name: 'raw', file: 'raw.ts', wires: ['openai', 'anthropic'] },
  { name: 'openai', file: 'openai-sdk.ts', wires: ['openai'] },
  { name: 'ai', file: 'ai-sdk.ts', wires: ['openai', 'anthropic'] },
  { name: 'rxagent', file: 'rxagent.ts', wires: ['openai', 'anthropic'] },
];
