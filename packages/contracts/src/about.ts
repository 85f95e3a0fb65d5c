import { z } from 'zod';

/** The body of `GET /api/version` and `GET /api/about`: what answers, and on which database. */
export const aboutResponseSchema = z.object({
  name: z.string(),
  version: z.string(),
  hostname: z.string(),
  database: z.object({ version: z.string() }),
});
export type AboutResponse = z.infer<typeof aboutResponseSchema>;

/** The body of `GET /healthz` and of a ready `GET /readyz`; a draining or cut-off `/readyz` says why. */
export const probeResponseSchema = z.object({ status: z.string() });
export type ProbeResponse = z.infer<typeof probeResponseSchema>;
