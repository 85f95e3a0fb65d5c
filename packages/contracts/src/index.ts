export * from './roles.js';
export * from './jobs.js';
export * from './agents.js';
export * from './permissions.js';
export * from './time.js';
