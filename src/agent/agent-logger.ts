/** A pino-compatible logger (pino, or anything with these four methods). */
export interface AgentLogger {
  debug(fields: object, message?: string): void;
  info(fields: object, message?: string): void;
  warn(fields: object, message?: string): void;
  error(fields: object, message?: string): void;
}
