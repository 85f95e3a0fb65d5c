import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';

export interface About {
  name: string;
  version: string;
  hostname: string;
  database: { version: string };
}

export const getAbout = () => apiFetch<About>('/api/about');

export const aboutQueryOptions = () => queryOptions({ queryKey: ['about'], queryFn: getAbout });

export const useAbout = () => useQuery(aboutQueryOptions());
