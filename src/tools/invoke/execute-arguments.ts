/**
 * The arguments `execute` gets: its own deep copy of the validated (frozen) arguments, so a tool
 * that edits its input in place changes neither what the hooks and the approver saw nor the audit
 * record. A validator output that cannot be cloned (a transform that returned a function or a
 * platform object) is passed as it is: frozen, so an edit throws instead of rewriting evidence.
 * @example tool.execute(executeArguments(invocation.arguments), context)
 */
export function executeArguments<T>(validated: T): T {
  try {
    return structuredClone(validated);
  } catch {
    return validated;
  }
}
