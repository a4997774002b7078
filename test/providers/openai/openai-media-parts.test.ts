import { describe, expect, it } from 'vitest';
import { InvalidRequestError } from '../../../src/index.ts';
import { toOpenAIContentPart } from '../../../src/providers/openai/to-openai-messages.ts';

describe('media OpenAI chat cannot take are refused before sending, never sent broken', () => {
  it('an image with neither url nor data is an InvalidRequestError (was an empty data URL)', () => {
    expect(() => toOpenAIContentPart({ type: 'image' })).toThrow(InvalidRequestError);
  });

  it('audio other than WAV or MP3 is an InvalidRequestError naming the formats it takes', () => {
    const send = () => toOpenAIContentPart({ type: 'file', data: 'T2dnUw==', mediaType: 'audio/ogg' });
    expect(send).toThrow(InvalidRequestError);
    expect(send).toThrow(/wav|mp3/i);
  });

  it('WAV audio given as a data URL goes as input_audio with its bare base64 (was a file part)', () => {
    expect(
      toOpenAIContentPart({ type: 'file', data: 'data:audio/wav;base64,UklGRiQ=', mediaType: 'audio/wav' }),
    ).toEqual({
      type: 'input_audio',
      input_audio: { data: 'UklGRiQ=', format: 'wav' },
    });
  });
});
