import type { GitopsChart } from '@opsdeck/contracts';
import { stringify } from 'yaml';

/**
 * The Add Integration wizard's GitOps output (settings §2.6): a Flux HelmRepository +
 * HelmRelease manifest and the equivalent `helm upgrade --install` command for one of
 * Flanksource's Mission Control charts, from a namespace, an interval and chart values.
 */

/** Flanksource's public Helm repository, where every GitOps chart of the wizard is published. */
export const FLANKSOURCE_HELM_REPOSITORY = 'https://flanksource.github.io/charts';
export const HELM_REPOSITORY_NAME = 'flanksource';

/** Settings §9: "Default integration namespace 'mission-control', interval 30m." */
export const DEFAULT_INTEGRATION_NAMESPACE = 'mission-control';
export const DEFAULT_INTEGRATION_INTERVAL = '30m';

export interface GitopsOption {
  chart: GitopsChart;
  /** The wizard's option label, which also titles the modal. */
  label: string;
  /** The chart's name in the Helm repository, also the release name. */
  chartName: string;
  /** What the values editor starts with. */
  exampleValues: string;
}

/** 'Add via GitOps', in the spec's order. */
export const GITOPS_OPTIONS: readonly GitopsOption[] = [
  {
    chart: 'aws',
    label: 'AWS',
    chartName: 'mission-control-aws',
    exampleValues:
      'connectionDetails:\n  connection: connection://mission-control/aws\n  region:\n    - eu-west-1\n',
  },
  {
    chart: 'azure',
    label: 'Azure',
    chartName: 'mission-control-azure',
    exampleValues: 'connectionDetails:\n  connection: connection://mission-control/azure\n',
  },
  {
    chart: 'prometheus',
    label: 'Prometheus',
    chartName: 'mission-control-prometheus',
    exampleValues: 'url: http://prometheus.monitoring.svc:9090\n',
  },
  { chart: 'flux', label: 'Flux', chartName: 'mission-control-flux', exampleValues: 'labels: {}\n' },
  {
    chart: 'kubernetes',
    label: 'Kubernetes',
    chartName: 'mission-control-kubernetes',
    exampleValues: 'clusterName: my-cluster\n',
  },
  {
    chart: 'mission-control',
    label: 'Mission Control',
    chartName: 'mission-control',
    exampleValues: 'labels: {}\n',
  },
];

export interface GitopsInput {
  option: GitopsOption;
  namespace: string;
  interval: string;
  /** The parsed values (undefined or an object). */
  values: Record<string, unknown>;
}

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
/** Flux's duration format (Go's time.ParseDuration without the smaller units). */
const DURATION = /^(\d+(\.\d+)?(ms|s|m|h))+$/;

/** The problem of each field, or nothing: Namespace a DNS label, Interval a duration such as 30m. */
export function validateGitopsFields(
  namespace: string,
  interval: string,
): { namespace?: string; interval?: string } {
  const problems: { namespace?: string; interval?: string } = {};
  if (namespace.trim() === '') problems.namespace = 'Namespace is required';
  else if (namespace.length > 63 || !DNS_LABEL.test(namespace))
    problems.namespace = 'Namespace must be lower-case letters, digits and dashes (at most 63)';
  if (interval.trim() === '') problems.interval = 'Interval is required';
  else if (!DURATION.test(interval)) problems.interval = 'Interval must be a duration such as 30m, 1h or 90s';
  return problems;
}

/** The HelmRepository and HelmRelease (Flux v2 APIs) installing the chart with these values. */
export function fluxManifest({ option, namespace, interval, values }: GitopsInput): string {
  const repository = {
    apiVersion: 'source.toolkit.fluxcd.io/v1',
    kind: 'HelmRepository',
    metadata: { name: HELM_REPOSITORY_NAME, namespace },
    spec: { interval, url: FLANKSOURCE_HELM_REPOSITORY },
  };
  const release = {
    apiVersion: 'helm.toolkit.fluxcd.io/v2',
    kind: 'HelmRelease',
    metadata: { name: option.chartName, namespace },
    spec: {
      interval,
      chart: {
        spec: {
          chart: option.chartName,
          sourceRef: { kind: 'HelmRepository', name: HELM_REPOSITORY_NAME, namespace },
        },
      },
      ...(Object.keys(values).length > 0 ? { values } : {}),
    },
  };
  return `${stringify(repository)}---\n${stringify(release)}`;
}

/** Single-quotes a word for a POSIX shell. */
function shellQuote(word: string): string {
  return /^[\w./:@=-]+$/.test(word) ? word : `'${word.replaceAll("'", `'"'"'`)}'`;
}

/** `helm repo add` and `helm upgrade --install`, the values written to a file first when there are any. */
export function helmCommand({ option, namespace, values }: GitopsInput): string {
  const lines = [`helm repo add ${HELM_REPOSITORY_NAME} ${FLANKSOURCE_HELM_REPOSITORY}`, 'helm repo update'];
  const hasValues = Object.keys(values).length > 0;
  if (hasValues)
    lines.push(`cat > ${option.chartName}-values.yaml <<'EOF'\n${stringify(values).trimEnd()}\nEOF`);
  lines.push(
    [
      'helm upgrade --install',
      shellQuote(option.chartName),
      `${HELM_REPOSITORY_NAME}/${option.chartName}`,
      `--namespace ${shellQuote(namespace)}`,
      '--create-namespace',
      ...(hasValues ? [`--values ${option.chartName}-values.yaml`] : []),
    ].join(' \\\n  '),
  );
  return lines.join('\n');
}
