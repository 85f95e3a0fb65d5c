/**
 * The ecosystem's math helpers (`math.Add`, `math.Sub`, `math.Mul`, `math.Div`, `math.Rem`,
 * `math.Pow`, `math.Abs`, `math.Ceil`, `math.Floor`, `math.Round`, `math.Max`, `math.Min`,
 * `math.Seq`, `math.IsInt`, `math.IsFloat`, `math.IsNum`) and CEL's `math.greatest`/`math.least`.
 */
import { CelScalar, celFunc, isCelList, listType, type CelFunc, type CelValue } from '@bufbuild/cel';

const DYN = CelScalar.DYN;
const BOOL = CelScalar.BOOL;

function toNumber(value: CelValue | unknown, name: string): number {
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && value.trim() !== '' && !Number.isNaN(Number(value))) return Number(value);
  throw new Error(`${name}: expected a number`);
}

function numbers(value: CelValue, name: string): number[] {
  const items = isCelList(value) ? [...value] : Array.isArray(value) ? (value as unknown[]) : [value];
  if (items.length === 0) throw new Error(`${name}: needs at least one number`);
  return items.map((item) => toNumber(item, name));
}

/** Whole results stay CEL ints (so `math.Add([1, 2]) == 3`); others are doubles. */
function result(value: number): bigint | number {
  return Number.isSafeInteger(value) ? BigInt(value) : value;
}

function listFunction(name: string, reduce: (values: number[]) => number): CelFunc {
  return celFunc(name, [DYN], DYN, (value: CelValue) => result(reduce(numbers(value, name))) as never);
}

function binary(name: string, operate: (a: number, b: number) => number): CelFunc {
  return celFunc(
    name,
    [DYN, DYN],
    DYN,
    (a: CelValue, b: CelValue) => result(operate(toNumber(a, name), toNumber(b, name))) as never,
  );
}

function unary(name: string, operate: (a: number) => number): CelFunc {
  return celFunc(name, [DYN], DYN, (a: CelValue) => result(operate(toNumber(a, name))) as never);
}

function sequence(start: number, end: number, step: number): bigint[] {
  if (step === 0) throw new Error('math.Seq: step must not be zero');
  const out: bigint[] = [];
  for (let value = start; step > 0 ? value <= end : value >= end; value += step) {
    if (out.length >= 10_000) throw new Error('math.Seq is limited to 10000 items');
    out.push(BigInt(value));
  }
  return out;
}

export const MATH_FUNCTIONS: CelFunc[] = [
  listFunction('math.Add', (values) => values.reduce((sum, value) => sum + value, 0)),
  listFunction('math.Mul', (values) => values.reduce((product, value) => product * value, 1)),
  listFunction('math.Max', (values) => Math.max(...values)),
  listFunction('math.Min', (values) => Math.min(...values)),
  listFunction('math.greatest', (values) => Math.max(...values)),
  listFunction('math.least', (values) => Math.min(...values)),
  binary('math.Sub', (a, b) => a - b),
  binary('math.Div', (a, b) => {
    if (b === 0) throw new Error('math.Div: division by zero');
    return a / b;
  }),
  binary('math.Rem', (a, b) => {
    if (b === 0) throw new Error('math.Rem: division by zero');
    return a % b;
  }),
  binary('math.Pow', (a, b) => a ** b),
  unary('math.Abs', Math.abs),
  unary('math.Ceil', Math.ceil),
  unary('math.Floor', Math.floor),
  unary('math.Round', Math.round),
  unary('math.Sqrt', Math.sqrt),
  celFunc('math.Seq', [DYN], listType(CelScalar.INT), (end: CelValue) =>
    sequence(1, toNumber(end, 'math.Seq'), 1),
  ),
  celFunc('math.Seq', [DYN, DYN], listType(CelScalar.INT), (start: CelValue, end: CelValue) => {
    const from = toNumber(start, 'math.Seq');
    const to = toNumber(end, 'math.Seq');
    return sequence(from, to, from <= to ? 1 : -1);
  }),
  celFunc(
    'math.Seq',
    [DYN, DYN, DYN],
    listType(CelScalar.INT),
    (start: CelValue, end: CelValue, step: CelValue) =>
      sequence(toNumber(start, 'math.Seq'), toNumber(end, 'math.Seq'), toNumber(step, 'math.Seq')),
  ),
  celFunc(
    'math.IsInt',
    [DYN],
    BOOL,
    (value: CelValue) =>
      typeof value === 'bigint' || (typeof value === 'string' && /^[+-]?\d+$/.test(value.trim())),
  ),
  celFunc(
    'math.IsFloat',
    [DYN],
    BOOL,
    (value: CelValue) =>
      typeof value === 'number' ||
      (typeof value === 'string' && /^[+-]?\d*\.\d+(e[+-]?\d+)?$/i.test(value.trim())),
  ),
  celFunc('math.IsNum', [DYN], BOOL, (value: CelValue) => {
    try {
      toNumber(value, 'math.IsNum');
      return true;
    } catch {
      return false;
    }
  }),
];
