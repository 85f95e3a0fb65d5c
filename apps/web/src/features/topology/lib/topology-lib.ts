import type { ComponentProperty, TopologyComponent } from '@opsdeck/contracts';

export const TOPOLOGY_PATH = '/topology';
export const componentPath = (id: string) => `${TOPOLOGY_PATH}/${encodeURIComponent(id)}`;
export const checkPath = (id: string) => `/health?checkId=${encodeURIComponent(id)}&timeRange=1h`;
export const configPath = (id: string) => `/catalog/${encodeURIComponent(id)}`;

/** Properties shown on a card: the headline ones, else the first three. */
export function headlineProperties(component: Pick<TopologyComponent, 'properties'>): ComponentProperty[] {
  const headline = component.properties.filter((property) => property.headline === true);
  return (headline.length > 0 ? headline : component.properties).slice(0, 3);
}

/** '8080', '30 MB', 'team-api': a property's shown value. */
export function propertyValue(property: ComponentProperty): string {
  if (property.value !== undefined)
    return property.unit ? `${property.value} ${property.unit}` : String(property.value);
  return property.text ?? '';
}

export const propertyLabel = (property: ComponentProperty): string => property.label ?? property.name ?? '';

export const HEALTH_ORDER = ['unhealthy', 'warning', 'healthy', 'unknown'] as const;

/** '2 healthy · 1 unhealthy' of the direct children; '' without children. */
export function childrenSummary(children: TopologyComponent['children']): string {
  return HEALTH_ORDER.filter((health) => children[health] > 0)
    .map((health) => `${children[health]} ${health}`)
    .join(' · ');
}
