export * from './preferences';
export * from './preferences-store';
export * from './use-preferences';
export * from './timezones';
