/** One problem with a tool call's arguments, for the model to correct. */
export interface ToolIssue {
  /** JSON pointer into the arguments (`''` is the whole object, `/items/0/name` a nested field). */
  path: string;
  message: string;
}
