/** Host values the CEL library functions hand back: protobuf well-known types as @bufbuild/cel reads them. */
import { DurationValue } from '../duration-value.js';

export interface DurationMessage {
  $typeName: 'google.protobuf.Duration';
  seconds: bigint;
  nanos: number;
}

export interface TimestampMessage {
  $typeName: 'google.protobuf.Timestamp';
  seconds: bigint;
  nanos: number;
}

export function durationMessage(duration: DurationValue): DurationMessage {
  const seconds = duration.nanoseconds / 1_000_000_000n;
  const nanos = Number(duration.nanoseconds % 1_000_000_000n);
  return { $typeName: 'google.protobuf.Duration', seconds, nanos };
}

export function timestampMessage(milliseconds: number): TimestampMessage {
  const seconds = Math.floor(milliseconds / 1000);
  return {
    $typeName: 'google.protobuf.Timestamp',
    seconds: BigInt(seconds),
    nanos: Math.round((milliseconds - seconds * 1000) * 1e6),
  };
}

function messageOf(value: unknown): { seconds: bigint; nanos: number } | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const candidate = (value as { message?: unknown }).message ?? value;
  if (
    candidate &&
    typeof candidate === 'object' &&
    typeof (candidate as { seconds?: unknown }).seconds === 'bigint' &&
    typeof (candidate as { nanos?: unknown }).nanos === 'number'
  )
    return candidate as { seconds: bigint; nanos: number };
  return undefined;
}

/** A CEL duration (or a duration text, or whole nanoseconds) as a DurationValue. */
export function readDuration(value: unknown, parse: (text: string) => DurationValue): DurationValue {
  if (typeof value === 'string') return parse(value);
  if (typeof value === 'bigint') return new DurationValue(value);
  if (typeof value === 'number') return new DurationValue(BigInt(Math.round(value)));
  const message = messageOf(value);
  if (message) return new DurationValue(message.seconds * 1_000_000_000n + BigInt(message.nanos));
  throw new Error('expected a duration');
}

/** A CEL timestamp as epoch milliseconds. */
export function readTimestamp(value: unknown): number {
  const message = messageOf(value);
  if (!message) throw new Error('expected a timestamp');
  return Number(message.seconds) * 1000 + message.nanos / 1e6;
}
