/** `uuid.V4()`, `uuid.Nil()`, `uuid.IsValid()`, `uuid.Parse()`. */
import { randomUUID } from 'node:crypto';
import { CelScalar, celFunc, type CelFunc } from '@bufbuild/cel';

const UUID_PATTERN =
  /^(?:urn:uuid:)?\{?[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}\}?$/i;

export function isValidUuid(text: string): boolean {
  return UUID_PATTERN.test(text.trim());
}

export const UUID_FUNCTIONS: CelFunc[] = [
  celFunc('uuid.V4', [], CelScalar.STRING, () => randomUUID()),
  celFunc('uuid.Nil', [], CelScalar.STRING, () => '00000000-0000-0000-0000-000000000000'),
  celFunc('uuid.IsValid', [CelScalar.STRING], CelScalar.BOOL, isValidUuid),
  celFunc('uuid.Parse', [CelScalar.STRING], CelScalar.STRING, (text: string) => {
    if (!isValidUuid(text)) throw new Error(`invalid UUID "${text}"`);
    const hex = text
      .replace(/^urn:uuid:/i, '')
      .replace(/[{}-]/g, '')
      .toLowerCase();
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  }),
];
