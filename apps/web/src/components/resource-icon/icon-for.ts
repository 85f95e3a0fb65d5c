import {
  Activity,
  Bell,
  BookOpen,
  Boxes,
  Cloud,
  Container,
  Database,
  Folder,
  GitBranch,
  Globe,
  HardDrive,
  HeartPulse,
  KeyRound,
  Layers,
  Network,
  Package,
  Radar,
  Server,
  Terminal,
  User,
  Users,
  type LucideIcon,
} from 'lucide-react';

/** Icon names this mapper can return; the name is exposed for tests and for callers storing a choice. */
export type ResourceIconName =
  | 'container'
  | 'workload'
  | 'server'
  | 'namespace'
  | 'network'
  | 'database'
  | 'storage'
  | 'web'
  | 'probe'
  | 'script'
  | 'folder'
  | 'secret'
  | 'cluster'
  | 'cloud'
  | 'git'
  | 'metrics'
  | 'team'
  | 'person'
  | 'playbook'
  | 'notification'
  | 'health'
  | 'default';

export const RESOURCE_ICONS: Record<ResourceIconName, LucideIcon> = {
  container: Container,
  workload: Layers,
  server: Server,
  namespace: Boxes,
  network: Network,
  database: Database,
  storage: HardDrive,
  web: Globe,
  probe: Radar,
  script: Terminal,
  folder: Folder,
  secret: KeyRound,
  cluster: Boxes,
  cloud: Cloud,
  git: GitBranch,
  metrics: Activity,
  team: Users,
  person: User,
  playbook: BookOpen,
  notification: Bell,
  health: HeartPulse,
  default: Package,
};

// Ordered: specific kinds before the platforms they run on, so 'Kubernetes::Pod' is a container.
const RULES: readonly [ResourceIconName, readonly string[]][] = [
  ['container', ['pod', 'container', 'containerd', 'docker']],
  [
    'workload',
    ['deployment', 'statefulset', 'daemonset', 'replicaset', 'workload', 'application', 'helmrelease'],
  ],
  ['server', ['node', 'instance', 'ec2', 'vm', 'virtualmachine', 'server', 'host', 'computer']],
  ['namespace', ['namespace', 'project', 'resourcegroup', 'account', 'subscription']],
  [
    'network',
    ['service', 'ingress', 'loadbalancer', 'network', 'vpc', 'subnet', 'dns', 'route', 'gateway', 'endpoint'],
  ],
  [
    'database',
    [
      'database',
      'db',
      'postgres',
      'postgresql',
      'mysql',
      'mariadb',
      'sql',
      'sqlserver',
      'mssql',
      'redis',
      'mongo',
      'mongodb',
      'elasticsearch',
      'opensearch',
      'rds',
      'dynamodb',
    ],
  ],
  [
    'storage',
    [
      'bucket',
      's3',
      'gcs',
      'storage',
      'volume',
      'disk',
      'pvc',
      'persistentvolume',
      'persistentvolumeclaim',
      'ebs',
    ],
  ],
  ['web', ['http', 'https', 'url', 'website', 'web']],
  ['probe', ['tcp', 'icmp', 'ping', 'port']],
  ['script', ['exec', 'script', 'shell', 'job', 'cronjob', 'lambda', 'function']],
  ['folder', ['folder', 'file', 'directory', 'smb', 'sftp']],
  ['secret', ['configmap', 'secret', 'certificate', 'tls', 'key', 'token']],
  ['cluster', ['kubernetes', 'k8s', 'cluster', 'eks', 'aks', 'gke']],
  ['cloud', ['aws', 'azure', 'gcp', 'cloud']],
  ['git', ['git', 'github', 'gitlab', 'repository', 'azuredevops']],
  ['metrics', ['alert', 'alertmanager', 'prometheus', 'metric', 'metrics']],
  ['team', ['team', 'group']],
  ['person', ['user', 'person', 'people']],
  ['playbook', ['playbook']],
  ['notification', ['notification', 'email', 'slack', 'webhook', 'teams']],
  ['health', ['canary', 'check', 'health']],
];

function tokensOf(value: string): string[] {
  return value
    .toLowerCase()
    .split(/::|[\s/._:-]+/)
    .filter(Boolean);
}

/**
 * Chooses an icon from an explicit icon hint, a config_class or a type such as
 * 'Kubernetes::Pod' (settings §2.10). The hint and config_class are tried first, then the type's
 * parts from the most specific; each part matches a whole word before a partial one.
 */
export function iconFor(input: {
  icon?: string | null;
  configClass?: string | null;
  type?: string | null;
}): ResourceIconName {
  const candidates: string[] = [];
  for (const value of [input.icon, input.configClass]) if (value) candidates.push(...tokensOf(value));
  if (input.type) candidates.push(...tokensOf(input.type).reverse());

  for (const token of candidates) {
    const rule =
      RULES.find(([, words]) => words.includes(token)) ??
      RULES.find(([, words]) => words.some((word) => word.length > 3 && token.includes(word)));
    if (rule) return rule[0];
  }
  return 'default';
}
