type LogMethod = (details: object, message: string) => void;

/** The logging the resource loaders need; a pino logger satisfies it. */
export interface ResourceLogger {
  debug: LogMethod;
  info: LogMethod;
  warn: LogMethod;
  error: LogMethod;
}
