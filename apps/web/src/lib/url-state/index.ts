export * from './filter-encoding';
export * from './search-param';
export * from './table-params';
export * from './time-range-params';
export * from './filter-params';
