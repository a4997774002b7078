import { assistant, type Message, message, system, toolMessage, user } from '../../src/core/index.ts';

/** Messages using every field a store must keep: binary parts, tool calls, flags and metadata. */
export function fixtureMessages(): Message[] {
  const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 255, 10, 13]);
  return [
    system('You are terse.\nLine two, "quoted", \u2028 and emoji 🦀'),
    user([
      { type: 'text', text: 'What is in these?' },
      // Binary and URL forms are what the design allows; the cast keeps this file valid while the
      // core ContentPart type still says `string` only.
      { type: 'image', data: png as unknown as string, mediaType: 'image/png' },
      { type: 'image', url: new URL('https://example.com/cat.png?x=1') as unknown as string },
      { type: 'image', url: 'https://example.com/dog.png' },
      { type: 'file', data: 'JVBERi0=', mediaType: 'application/pdf', filename: 'a.pdf' },
    ]),
    assistant(
      '',
      [
        {
          id: 'call_1',
          name: 'get_weather',
          arguments: { city: 'Oslo', days: [1, 2], nested: { $rxagent: 'x' } },
        },
        {
          id: 'call_2',
          name: 'broken',
          arguments: {},
          invalidArguments: { raw: '{"city":', message: 'Unexpected end' },
        },
      ],
      { anthropic: { thinking: [{ type: 'thinking', thinking: 'hmm', signature: 'EqQBCkYIARgCIkA=' }] } },
    ),
    message({ ...toolMessage('call_1', '{"tempC":18}') }),
    message({ role: 'tool', toolCallId: 'call_2', content: 'bad arguments', isError: true }),
    message({ role: 'user', content: 'cached prefix', cache: true }),
    assistant([{ type: 'text', text: 'Sunny, 18 °C.' }]),
  ];
}
