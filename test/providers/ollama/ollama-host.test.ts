import { describe, expect, it } from 'vitest';
import { ollamaCapabilities } from '../../../src/providers/ollama/ollama-capabilities.ts';
import { resolveOllamaHost } from '../../../src/providers/ollama/ollama-host.ts';

describe('resolveOllamaHost', () => {
  it.each([
    [undefined, 'http://127.0.0.1:11434'],
    ['', 'http://127.0.0.1:11434'],
    ['  ', 'http://127.0.0.1:11434'],
    ['0.0.0.0', 'http://0.0.0.0:11434'],
    ['gpu-box', 'http://gpu-box:11434'],
    ['gpu-box:8080', 'http://gpu-box:8080'],
    [':9999', 'http://127.0.0.1:9999'],
    ['http://gpu-box', 'http://gpu-box:80'],
    ['https://ollama.example.com', 'https://ollama.example.com:443'],
    ['https://ollama.example.com/', 'https://ollama.example.com:443'],
    ['http://127.0.0.1:11434/', 'http://127.0.0.1:11434'],
    ['http://127.0.0.1:11434/api', 'http://127.0.0.1:11434'],
    ['https://proxy.example.com/ollama/', 'https://proxy.example.com:443/ollama'],
    ['HTTP://Box:1', 'http://Box:1'],
    ['[::1]:11500', 'http://[::1]:11500'],
    ['[::1]', 'http://[::1]:11434'],
    ['::1', 'http://[::1]:11434'],
    ['gpu-box:', 'http://gpu-box:11434'],
  ])('%j → %s', (value, expected) => {
    expect(resolveOllamaHost(value)).toBe(expected);
  });
});

describe('ollamaCapabilities', () => {
  it('guesses vision, reasoning and tools from the family name', () => {
    expect(ollamaCapabilities('llama3.2')).toEqual({
      streaming: true,
      tools: true,
      vision: false,
      json: true,
      reasoning: false,
    });
    expect(ollamaCapabilities('qwen3:8b')).toMatchObject({ tools: true, reasoning: true, vision: false });
    expect(ollamaCapabilities('deepseek-r1:14b')).toMatchObject({ reasoning: true });
    expect(ollamaCapabilities('llava:13b')).toMatchObject({ vision: true, tools: false });
    expect(ollamaCapabilities('gemma3:4b')).toMatchObject({ vision: true, tools: false });
    expect(ollamaCapabilities('hf.co/user/Llama-3.2-11B-Vision')).toMatchObject({ vision: true });
    expect(ollamaCapabilities('gpt-oss:20b')).toMatchObject({ reasoning: true, tools: true });
  });
});
