import { READ } from '../../data-api/index.js';
import type { ServerModule } from '../../server-module.js';
import { incidentRuleKind } from './incident-rule-kind.js';
import { startIncidentWorkers } from './workers.js';

/**
 * Incidents, their timeline, hypotheses, evidence and responders (written through the data API;
 * their behaviour is in migration 0031's triggers) and the incident-rules engine.
 */
export const incidentsModule: ServerModule = {
  name: 'incidents',
  kinds: [incidentRuleKind],
  dataApi: {
    tables: {
      incidents: {},
      incident_histories: { actions: READ },
      hypotheses: {},
      evidences: {},
      comments: {},
      responders: {},
      incident_rules: {},
    },
    views: {
      incident_summary: {},
      incidents_by_component: {},
      incidents_by_config: {},
    },
  },
  async startWorkers({ pool, jobs, logger }) {
    return startIncidentWorkers({ pool, jobs, logger });
  },
};
