import type { ResourceKind } from '../resource-kind.js';
import { canaryKind } from './canary.js';
import { configMapKind } from './config-map.js';
import { connectionKind } from './connection.js';
import { incidentRuleKind } from './incident-rule.js';
import { notificationSilenceKind } from './notification-silence.js';
import { notificationKind } from './notification.js';
import { permissionKind } from './permission.js';
import { playbookKind } from './playbook.js';
import { scrapeConfigKind } from './scrape-config.js';
import { secretKind } from './secret.js';
import { teamKind } from './team.js';
import { topologyKind } from './topology.js';
import { viewKind } from './view.js';

/**
 * Every resource kind Opsdeck accepts, in the order listings show them. Registering a kind:
 * one file in this folder and one line here.
 */
export const RESOURCE_KINDS: readonly ResourceKind[] = [
  teamKind,
  connectionKind,
  canaryKind,
  topologyKind,
  scrapeConfigKind,
  playbookKind,
  notificationKind,
  notificationSilenceKind,
  incidentRuleKind,
  viewKind,
  permissionKind,
  secretKind,
  configMapKind,
];
