import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { ForbiddenToolArgumentError } from '../../src/core/index.ts';
import {
  canonicalArgumentName,
  defineTool,
  IDENTITY_ARGUMENT_NAMES,
  ToolRegistry,
} from '../../src/tools/index.ts';

const noop = () => null;
const define = (input: Record<string, unknown>) =>
  defineTool({ name: 't', description: '', input, execute: noop });
const object = (properties: Record<string, unknown>) => ({ type: 'object', properties });

function refusal(fn: () => unknown): ForbiddenToolArgumentError {
  try {
    fn();
  } catch (error) {
    if (ForbiddenToolArgumentError.is(error)) return error;
    throw error;
  }
  throw new Error('not refused');
}

describe('identity-shaped arguments', () => {
  it.each([
    'user_id',
    'userId',
    'UserID',
    'USER_ID',
    'user-id',
    'user.id',
    'account_id',
    'accountId',
    'tenant_id',
    'TenantId',
    'actor_id',
    'owner_id',
    'on_behalf_of',
    'onBehalfOf',
    'impersonate',
    'principal_id',
    'customer_id',
    'org_id',
    'run_as',
  ])('refuses %s', (name) => {
    const error = refusal(() => define(object({ [name]: { type: 'string' } })));
    expect(error).toMatchObject({ argumentName: name, toolName: 't', code: 'forbidden_tool_argument' });
    expect(error.schemaPath).toBe(`/properties/${name}`);
  });

  it('finds them at any depth and in any position', () => {
    const cases: [Record<string, unknown>, string][] = [
      [object({ a: object({ b: object({ userId: {} }) }) }), '/properties/a/properties/b/properties/userId'],
      [
        object({ list: { type: 'array', items: object({ tenant_id: {} }) } }),
        '/properties/list/items/properties/tenant_id',
      ],
      [{ type: 'object', $defs: { X: object({ ownerId: {} }) } }, '/$defs/X/properties/ownerId'],
      [{ type: 'object', anyOf: [object({ on_behalf_of: {} })] }, '/anyOf/0/properties/on_behalf_of'],
      [{ type: 'object', required: ['account_id'] }, '/required/0'],
      [{ type: 'object', dependentRequired: { a: ['actorId'] } }, '/dependentRequired/a/0'],
    ];
    for (const [input, path] of cases) expect(refusal(() => define(input)).schemaPath).toBe(path);
  });

  it('refuses them in zod schemas too', () => {
    const input = z.object({ query: z.string(), filter: z.object({ customerId: z.string() }).optional() });
    expect(refusal(() => defineTool({ name: 't', description: '', input, execute: noop })).argumentName).toBe(
      'customerId',
    );
  });

  it('allows names that only look similar or name ordinary data', () => {
    const tool = define(
      object({ user: {}, actor: {}, owner: {}, email: {}, user_ids_count: {}, account: {}, subject: {} }),
    );
    expect(Object.keys(tool.parameters.properties as object)).toHaveLength(7);
  });

  it('checks again at registration, with the registry’s extra names', () => {
    const tool = define(object({ workspace_id: { type: 'string' } }));
    const registry = new ToolRegistry({ forbiddenArgumentNames: ['workspaceId'] });
    expect(() => registry.register(tool)).toThrow(ForbiddenToolArgumentError);
    expect(new ToolRegistry().register(tool).has('t')).toBe(true);
  });

  it('documents its list in canonical form', () => {
    expect(IDENTITY_ARGUMENT_NAMES).toContain('user_id');
    expect(canonicalArgumentName('On-Behalf_Of')).toBe('onbehalfof');
  });
});
