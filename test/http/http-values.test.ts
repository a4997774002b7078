import type { Message as AgUiMessage } from '@ag-ui/core';
import { describe, expect, it } from 'vitest';
import { ReplayExpiredError, RunNotFoundError, TooManyRunsError } from '../../src/core/index.ts';
import {
  eventId,
  isSequencedEvent,
  parseEventId,
  runErrorAnswer,
  runErrorResponse,
  sseFrame,
} from '../../src/http/index.ts';
import { fromAgUiMessages } from '../../src/ag-ui/index.ts';
import { newUserMessages } from '../../src/http/ag-ui-messages.ts';

describe('runErrorAnswer', () => {
  it('maps the run errors to 404, 410 and 503 with their data, and hides anything else', () => {
    expect(runErrorAnswer(new RunNotFoundError('r1'))).toEqual({
      status: 404,
      body: { error: { name: 'RunNotFoundError', code: 'run_not_found', message: 'No run r1', runId: 'r1' } },
    });
    expect(runErrorAnswer(new ReplayExpiredError('r1', 'r1:3'))).toMatchObject({
      status: 410,
      body: { error: { name: 'ReplayExpiredError', runId: 'r1', lastEventId: 'r1:3' } },
    });
    expect(runErrorAnswer(new TooManyRunsError(5)).status).toBe(503);
    expect(runErrorAnswer(new Error('db password in here'))).toEqual({
      status: 500,
      body: { error: { name: 'Error', code: 'internal_error', message: 'Internal error' } },
    });
  });

  it('is a JSON Response for fetch-style servers', async () => {
    const response = runErrorResponse(new RunNotFoundError('r2'));
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: { runId: 'r2' } });
  });
});

describe('event ids and frames', () => {
  it('round-trips run ids (with colons) and refuses what is not an event id', () => {
    expect(parseEventId(eventId('a:b', 12))).toEqual({ runId: 'a:b', seq: 12 });
    for (const bad of ['', 'r1', ':3', 'r1:', 'r1:x', 'r1:01', 'r1:-1', 'r1:1.5'])
      expect(parseEventId(bad)).toBeUndefined();
    expect(isSequencedEvent({ id: 'r:1', event: { type: 'text-delta', text: '' } })).toBe(true);
    expect(isSequencedEvent({ type: 'text-delta', text: '' })).toBe(false);
  });

  it('writes multi-line data as several data: lines and refuses a line break in a field', () => {
    expect(sseFrame('a\nb\r\nc', { event: 'x', id: '1' })).toBe(
      'event: x\nid: 1\ndata: a\ndata: b\ndata: c\n\n',
    );
    expect(() => sseFrame('a', { id: 'bad\nid' })).toThrow(/line break/);
  });
});

describe('fromAgUiMessages', () => {
  it('converts every conversational role and leaves display-only ones out', () => {
    const messages: AgUiMessage[] = [
      { id: '1', role: 'system', content: 'Be brief.' },
      { id: '2', role: 'developer', content: 'Use tools.' },
      {
        id: '3',
        role: 'user',
        content: [
          { type: 'text', text: 'What is this?' },
          { type: 'image', source: { type: 'url', value: 'https://x/cat.png' } },
          { type: 'image', source: { type: 'data', value: 'AAAA', mimeType: 'image/png' } },
        ],
      },
      {
        id: '4',
        role: 'assistant',
        content: 'Looking.',
        toolCalls: [
          { id: 'c1', type: 'function', function: { name: 'look', arguments: '{"at":"cat"}' } },
          { id: 'c2', type: 'function', function: { name: 'look', arguments: '[1,' } },
        ],
      },
      { id: '5', role: 'tool', toolCallId: 'c1', content: 'a cat' },
      { id: '6', role: 'tool', toolCallId: 'c2', content: 'bad arguments', error: 'invalid' },
      { id: '7', role: 'reasoning', content: 'hmm' },
      { id: '8', role: 'user', content: 'Thanks' },
    ];
    const converted = fromAgUiMessages(messages);
    expect(converted.map((message) => message.role)).toEqual([
      'system',
      'system',
      'user',
      'assistant',
      'tool',
      'tool',
      'user',
    ]);
    expect(converted[2]!.content).toEqual([
      { type: 'text', text: 'What is this?' },
      { type: 'image', url: 'https://x/cat.png' },
      { type: 'image', data: 'AAAA', mediaType: 'image/png' },
    ]);
    expect(converted[3]!.toolCalls).toEqual([
      { id: 'c1', name: 'look', arguments: { at: 'cat' } },
      {
        id: 'c2',
        name: 'look',
        arguments: {},
        invalidArguments: { raw: '[1,', message: 'not a JSON object' },
      },
    ]);
    expect(converted[5]).toMatchObject({ role: 'tool', toolCallId: 'c2', isError: true });
    expect(newUserMessages(converted).map((message) => message.content)).toEqual(['Thanks']);
  });
});
