import { type CallCheck, settledBase } from './valid-call.ts';

/** The tool's `authorize(actor, invocation)`: anything but `true`, or a throw, is `permission_denied`. */
export const checkAuthorized: CallCheck = async (_env, valid) => {
  const { authorize } = valid.tool;
  if (!authorize) return undefined;
  let cause: unknown;
  try {
    if ((await authorize(valid.invocation.actor, valid.invocation as never)) === true) return undefined;
  } catch (error) {
    cause = error; // fail closed
  }
  const message = `Not authorized to call ${valid.tool.name}`;
  return {
    ...settledBase(valid),
    status: 'permission_denied',
    error: { message, ...(cause !== undefined ? { cause } : {}) },
  };
};
