/**
 * Kubernetes-style quantity helpers: `k8s.cpuAsMillicores("250m")`, `k8s.memoryAsBytes("1Gi")`.
 * (Health of Kubernetes objects needs the cluster's resources, which this product does not
 * watch; those functions are not offered, so an expression using them fails to compile.)
 */
import { CelScalar, celFunc, type CelFunc } from '@bufbuild/cel';

const BINARY: Record<string, number> = {
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
  Ti: 2 ** 40,
  Pi: 2 ** 50,
  Ei: 2 ** 60,
};
const DECIMAL: Record<string, number> = {
  '': 1,
  k: 1e3,
  K: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  P: 1e15,
  E: 1e18,
  m: 1e-3,
};

export function quantityValue(text: string): number {
  const match = /^([+-]?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)(Ki|Mi|Gi|Ti|Pi|Ei|k|K|M|G|T|P|E|m)?$/.exec(
    text.trim(),
  );
  if (!match) throw new Error(`invalid quantity "${text}"`);
  const unit = match[2] ?? '';
  return Number(match[1]) * (BINARY[unit] ?? DECIMAL[unit]);
}

export const K8S_FUNCTIONS: CelFunc[] = [
  celFunc('k8s.cpuAsMillicores', [CelScalar.STRING], CelScalar.INT, (text: string) =>
    BigInt(Math.round(quantityValue(text) * 1000)),
  ),
  celFunc('k8s.memoryAsBytes', [CelScalar.STRING], CelScalar.INT, (text: string) =>
    BigInt(Math.round(quantityValue(text))),
  ),
];
