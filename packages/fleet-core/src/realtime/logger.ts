/** Minimal logger injected into the stateful parts of core (console satisfies it). */
export interface Logger {
  debug(message: string, ...details: unknown[]): void;
  warn(message: string, ...details: unknown[]): void;
  error(message: string, ...details: unknown[]): void;
}

/** A logger that drops everything. */
export const silentLogger: Logger = {
  debug: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};
