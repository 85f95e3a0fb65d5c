import {
  agentIdParamsSchema,
  generateAgentRequestSchema,
  type GenerateAgentResponse,
} from '@opsdeck/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { withTransaction, type Pool } from '../../platform/db/pool.js';
import { HttpError } from '../../platform/http/errors.js';
import { createAccessToken } from './access-tokens.js';
import { requirePermission } from './authorization.js';

/**
 * The agent registry (issue 27 "Agents"): an agent is a row of `agents` plus the service person
 * (people.type 'agent') it authenticates as, with one unscoped API token of that person. The
 * service person holds no role, so the token authenticates as the agent and nothing more; what an
 * agent may push is granted by permissions on that person. The token is in the answer only.
 */
export async function agentRoutes(app: FastifyInstance, options: { pool: Pool }): Promise<void> {
  const { pool } = options;
  const typed = app.withTypeProvider<ZodTypeProvider>();

  typed.post(
    '/api/agent/generate',
    { schema: { body: generateAgentRequestSchema }, preHandler: requirePermission('agents', 'write') },
    async (request): Promise<GenerateAgentResponse> => {
      const { name, description, properties } = request.body;
      const creator = request.auth?.person.id ?? null;
      const username = `agent-${name}`;
      return withTransaction(pool, async (client) => {
        const taken = await client.query(`SELECT 1 FROM agents WHERE name = $1 AND deleted_at IS NULL`, [
          name,
        ]);
        if (taken.rowCount) throw new HttpError(400, `An agent named ${name} already exists`, 'name');
        const person = await client.query<{ id: string }>(
          `INSERT INTO people (name, type) VALUES ($1, 'agent') RETURNING id`,
          [username],
        );
        const personId = person.rows[0]!.id;
        const agent = await client.query<{ id: string }>(
          `INSERT INTO agents (name, description, username, person_id, properties, created_by)
           VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
          [name, description ?? null, username, personId, JSON.stringify(properties), creator],
        );
        const { token } = await createAccessToken(client, {
          name: `agent ${name}`,
          personId,
          createdBy: creator ?? personId,
          expiresAt: null,
          scopes: [],
        });
        return { id: agent.rows[0]!.id, username, access_token: token };
      });
    },
  );

  // Soft delete (spec core §4): the row stays with deleted_at; its token ends at once.
  typed.delete(
    '/api/agent/:id',
    { schema: { params: agentIdParamsSchema }, preHandler: requirePermission('agents', 'delete') },
    async (request) => {
      const { id } = request.params;
      return withTransaction(pool, async (client) => {
        const { rows } = await client.query<{ name: string; person_id: string | null }>(
          `UPDATE agents SET deleted_at = now() WHERE id = $1 AND deleted_at IS NULL RETURNING name, person_id`,
          [id],
        );
        const agent = rows[0];
        if (!agent) throw new HttpError(404, 'Agent not found');
        if (agent.person_id) {
          await client.query(`DELETE FROM access_tokens WHERE person_id = $1`, [agent.person_id]);
          await client.query(`UPDATE people SET deleted_at = now() WHERE id = $1`, [agent.person_id]);
        }
        return { message: `${agent.name} deleted successfully` };
      });
    },
  );
}
