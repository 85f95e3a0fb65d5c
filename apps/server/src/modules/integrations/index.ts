/** The integrations module: the Add Integration wizard's chart schemas (see module.ts). */
export { integrationsModule } from './module.js';
export {
  BUNDLED_CHART_SCHEMAS,
  CHART_SCHEMA_URL_ENV,
  chartSchemaUrlTemplate,
  createChartSchemaSource,
  DEFAULT_CHART_SCHEMA_URL,
  type ChartSchemaSource,
} from './chart-schemas.js';
