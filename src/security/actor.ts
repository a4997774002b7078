/**
 * Who is calling a tool. The application builds it from its own authentication and passes it to
 * `invoke`; it never comes from the model's arguments.
 * @example const actor: Actor = { id: 'u_42', roles: ['staff'], tenant: 'acme' };
 */
export interface Actor {
  /** A stable id: rate limits and audit entries are keyed on it. */
  readonly id: string;
  readonly roles?: readonly string[];
  /** Anything else the application's `authorize` functions need. */
  readonly [key: string]: unknown;
}
