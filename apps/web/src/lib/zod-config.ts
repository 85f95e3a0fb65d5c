import { config } from 'zod';

// The app's Content-Security-Policy has no 'unsafe-eval' (server platform/http/security-headers.ts):
// zod's compiled parsers cannot run in the page, and the `new Function` probe zod makes to find
// out is reported as a CSP violation. Parse interpreted from the start instead. This module is
// imported first by main.tsx, before any schema of @opsdeck/contracts is built.
config({ jitless: true });
