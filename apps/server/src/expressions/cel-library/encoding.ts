/**
 * YAML and JSON conversions beside the core `.JSON()`/`toJSON()`: `YAML()`, `toYAML()`,
 * `data.YAML()`, `data.ToYAML()`, `data.JSON()`, `data.ToJSON()`, and the gomplate-style
 * `base64.Encode()`/`base64.Decode()`.
 */
import { CelScalar, celFunc, celMethod, type CelFunc, type CelInput, type CelValue } from '@bufbuild/cel';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import type { JsonValue } from '../values.js';

const DYN = CelScalar.DYN;
const STRING = CelScalar.STRING;

/** Conversions between CEL and JSON, supplied by cel.ts (which owns them). */
export interface JsonBridge {
  toCel(value: unknown): CelInput;
  fromCel(value: CelValue): JsonValue;
}

export function encodingFunctions(bridge: JsonBridge): CelFunc[] {
  const fromYaml = (text: string): CelInput => bridge.toCel(parseYaml(text) as unknown);
  const toYaml = (value: CelValue): string => stringifyYaml(bridge.fromCel(value));
  const fromJson = (text: string): CelInput => bridge.toCel(JSON.parse(text) as unknown);
  return [
    celFunc('YAML', [STRING], DYN, fromYaml),
    celFunc('data.YAML', [STRING], DYN, fromYaml),
    celMethod('YAML', STRING, [], DYN, function (this: string) {
      return fromYaml(this);
    }),
    celFunc('toYAML', [DYN], STRING, toYaml),
    celFunc('data.ToYAML', [DYN], STRING, toYaml),
    celMethod('toYAML', DYN, [], STRING, function (this: CelValue) {
      return toYaml(this);
    }),
    celFunc('data.JSON', [STRING], DYN, fromJson),
    celFunc('data.ToJSON', [DYN], STRING, (value: CelValue) => JSON.stringify(bridge.fromCel(value))),
    celFunc('base64.Encode', [STRING], STRING, (text: string) => Buffer.from(text).toString('base64')),
    celFunc('base64.Decode', [STRING], STRING, (text: string) =>
      Buffer.from(text, 'base64').toString('utf8'),
    ),
  ];
}
