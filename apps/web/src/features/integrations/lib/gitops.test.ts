import { parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import { fluxManifest, GITOPS_OPTIONS, helmCommand, validateGitopsFields } from './gitops';

const kubernetes = GITOPS_OPTIONS.find((option) => option.chart === 'kubernetes')!;

describe('GitOps output', () => {
  it('offers the spec options in order', () => {
    expect(GITOPS_OPTIONS.map((option) => option.label)).toEqual([
      'AWS',
      'Azure',
      'Prometheus',
      'Flux',
      'Kubernetes',
      'Mission Control',
    ]);
  });

  it('writes a HelmRepository and a HelmRelease with the namespace, interval and values', () => {
    const text = fluxManifest({
      option: kubernetes,
      namespace: 'ops',
      interval: '1h',
      values: { clusterName: 'prod' },
    });
    const [repository, release] = parseAllDocuments(text).map((document) => document.toJS() as unknown);
    expect(repository).toEqual({
      apiVersion: 'source.toolkit.fluxcd.io/v1',
      kind: 'HelmRepository',
      metadata: { name: 'flanksource', namespace: 'ops' },
      spec: { interval: '1h', url: 'https://flanksource.github.io/charts' },
    });
    expect(release).toEqual({
      apiVersion: 'helm.toolkit.fluxcd.io/v2',
      kind: 'HelmRelease',
      metadata: { name: 'mission-control-kubernetes', namespace: 'ops' },
      spec: {
        interval: '1h',
        chart: {
          spec: {
            chart: 'mission-control-kubernetes',
            sourceRef: { kind: 'HelmRepository', name: 'flanksource', namespace: 'ops' },
          },
        },
        values: { clusterName: 'prod' },
      },
    });
  });

  it('writes the helm command with the values file only when there are values', () => {
    const withValues = helmCommand({
      option: kubernetes,
      namespace: 'ops',
      interval: '30m',
      values: { clusterName: 'a b' },
    });
    expect(withValues).toContain(
      "cat > mission-control-kubernetes-values.yaml <<'EOF'\nclusterName: a b\nEOF",
    );
    expect(withValues).toContain(
      'helm upgrade --install \\\n  mission-control-kubernetes \\\n  flanksource/mission-control-kubernetes \\\n  --namespace ops \\\n  --create-namespace \\\n  --values mission-control-kubernetes-values.yaml',
    );
    const bare = helmCommand({ option: kubernetes, namespace: 'ops', interval: '30m', values: {} });
    expect(bare).not.toContain('--values');
    expect(
      bare.startsWith('helm repo add flanksource https://flanksource.github.io/charts\nhelm repo update\n'),
    ).toBe(true);
  });

  it('names the field that is wrong', () => {
    expect(validateGitopsFields('mission-control', '30m')).toEqual({});
    expect(validateGitopsFields('', '')).toEqual({
      namespace: 'Namespace is required',
      interval: 'Interval is required',
    });
    expect(validateGitopsFields('Bad_NS', '30 minutes')).toEqual({
      namespace: 'Namespace must be lower-case letters, digits and dashes (at most 63)',
      interval: 'Interval must be a duration such as 30m, 1h or 90s',
    });
    expect(validateGitopsFields('a', '1h30m')).toEqual({});
  });
});
