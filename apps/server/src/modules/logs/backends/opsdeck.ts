import { pino, type Logger } from 'pino';
import type { LogLine } from '@opsdeck/contracts';
import { parseJsonLine, selectLines } from '../line-filter.js';
import type { LogBackend } from './types.js';

/** Lines of Opsdeck's own log kept in memory (the newest; older ones drop off). */
export const OWN_LOG_CAPACITY = 5000;

/** A bounded ring of the server's own log lines, newest last. */
export class LogRing {
  private readonly lines: LogLine[] = [];
  constructor(private readonly capacity = OWN_LOG_CAPACITY) {}
  push(line: LogLine): void {
    this.lines.push(line);
    if (this.lines.length > this.capacity) this.lines.splice(0, this.lines.length - this.capacity);
  }
  snapshot(): LogLine[] {
    return [...this.lines];
  }
}

export const ownLogRing = new LogRing();

interface WritableStream {
  write(chunk: string): unknown;
}
const tapped = new WeakSet<object>();

/**
 * Keeps a copy of every line the server's logger writes in `ownLogRing`. The logger's
 * destination stream is shared by all its children, so tapping it once (from the module's
 * routes) sees the whole process; the lines are already redacted by the logger's own rules.
 */
export function tapOwnLog(logger: Logger, ring: LogRing = ownLogRing): void {
  const stream = (logger as unknown as Record<symbol, WritableStream | undefined>)[pino.symbols.streamSym];
  if (!stream || typeof stream.write !== 'function' || tapped.has(stream)) return;
  tapped.add(stream);
  const write = stream.write.bind(stream);
  stream.write = (chunk: string) => {
    for (const text of String(chunk).split('\n')) {
      if (text.trim() === '') continue;
      const line = parseJsonLine(text, new Date());
      if (line) ring.push(line);
    }
    return write(chunk);
  };
}

/** Opsdeck's own logs: the lines this process wrote, from the in-memory ring. */
export const opsdeckBackend: LogBackend = {
  type: 'opsdeck',
  search(_spec, search) {
    return Promise.resolve(selectLines(ownLogRing.snapshot(), search));
  },
};
