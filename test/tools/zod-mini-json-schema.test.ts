import * as zm from 'zod/mini';
import { describe, expect, it } from 'vitest';
import { InvalidRequestError } from '../../src/core/index.ts';
import { responseJsonSchema } from '../../src/providers/shared/response-json-schema.ts';
import { defineTool, validatorJsonSchema } from '../../src/tools/index.ts';

// zod/mini (and zod before 4.2) offers no Standard JSON Schema: the tools convert it with zod's own
// toJSONSchema; the providers, which do not load zod, ask for responseFormat.jsonSchema instead.
describe('a zod/mini schema', () => {
  const city = zm.object({ city: zm.string(), days: zm.optional(zm.number()) });

  it("describes a tool's input, as the README's footprint example uses it", () => {
    const tool = defineTool({
      name: 'weather',
      description: 'Weather for a city.',
      input: city,
      execute: ({ city: name }) => ({ name }),
    });
    expect(tool.parameters).toMatchObject({
      type: 'object',
      properties: { city: { type: 'string' }, days: { type: 'number' } },
      required: ['city'],
    });
    expect(validatorJsonSchema(city)).toMatchObject({ required: ['city'] });
  });

  it('in responseFormat without jsonSchema is an InvalidRequestError naming the way out', () => {
    let error: unknown;
    try {
      responseJsonSchema({ type: 'json', schema: city }, 'openai');
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect((error as Error).message).toContain('responseFormat.jsonSchema');
    expect((error as Error).message).toContain('z.toJSONSchema(schema');
    expect(
      responseJsonSchema(
        { type: 'json', schema: city, jsonSchema: zm.toJSONSchema(city, { io: 'input' }) },
        'openai',
      ),
    ).toMatchObject({ required: ['city'] });
  });
});
