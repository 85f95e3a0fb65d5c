import {
  playbookIdParamsSchema,
  playbookListQuerySchema,
  playbookParamsRequestSchema,
  playbookRunRequestSchema,
  playbookRunsQuerySchema,
  PLAYBOOK_RUN_FINAL_STATUSES,
  type PlaybookRunDetail,
  type PlaybookRunStatus,
  type PlaybookSummary,
  type Resource,
} from '@opsdeck/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { maskSealedText } from '../../platform/secret-fields.js';
import type { SecretBox } from '../../platform/secrets.js';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { withTransaction, type Pool } from '../../platform/db/pool.js';
import { HttpError } from '../../platform/http/errors.js';
import { enqueueEvent } from '../../platform/jobs/index.js';
import { authorizeRequest, type PermissionTarget } from '../auth/index.js';
import { anyPropertyTrue } from '../settings/index.js';
import { validateParameters } from './parameters.js';
import { createRun } from './runs.js';
import { scheduleRun, setRunStatus } from './runner.js';
import {
  loadPlaybook,
  loadResource,
  needsNoResource,
  parametersOf,
  playbookAppliesTo,
  renderParameters,
  targetOf,
  templateVariables,
  type RunTarget,
  type TargetKind,
} from './store.js';

const TARGET_RESOURCE: Record<TargetKind, Resource> = {
  configs: 'database',
  components: 'topologies',
  checks: 'canaries',
};

function permissionTarget(playbookId: string, target: RunTarget): PermissionTarget {
  return {
    playbook_id: playbookId,
    ...(target.config_id ? { config_id: target.config_id } : {}),
    ...(target.component_id ? { component_id: target.component_id } : {}),
    ...(target.check_id ? { check_id: target.check_id } : {}),
  };
}

async function allowed(
  pool: Pool,
  request: FastifyRequest,
  action: 'playbook:run' | 'playbook:approve',
  playbookId: string,
  target: RunTarget,
): Promise<{ allow: true } | { allow: false; status: 401 | 403; message: string }> {
  return authorizeRequest(pool, request, 'playbook_runs', action, {
    object: 'playbooks',
    target: permissionTarget(playbookId, target),
  });
}

async function refuseUnless(
  pool: Pool,
  request: FastifyRequest,
  action: 'playbook:run' | 'playbook:approve',
  playbookId: string,
  target: RunTarget,
): Promise<void> {
  const decision = await allowed(pool, request, action, playbookId, target);
  if (!decision.allow) throw new HttpError(decision.status, decision.message);
}

/** The resource a request names, checked: it exists, the caller may read it, the playbook takes it. */
async function resolveTarget(
  pool: Pool,
  request: FastifyRequest,
  spec: Record<string, unknown>,
  target: RunTarget,
) {
  const chosen = targetOf(target);
  if (chosen === 'several')
    throw new HttpError(400, 'give one of config_id, component_id and check_id', 'config_id');
  if (!chosen) {
    if (!needsNoResource(spec))
      throw new HttpError(
        400,
        'this playbook runs on a resource: give config_id, component_id or check_id',
        'config_id',
      );
    return { kind: undefined, resource: undefined };
  }
  const field = `${chosen.kind === 'configs' ? 'config' : chosen.kind === 'components' ? 'component' : 'check'}_id`;
  const read = await authorizeRequest(pool, request, TARGET_RESOURCE[chosen.kind], 'read');
  if (!read.allow) throw new HttpError(read.status, read.message, field);
  const resource = await loadResource(pool, chosen.kind, chosen.id);
  if (!resource) throw new HttpError(404, `${field}: not found`, field);
  if (!playbookAppliesTo(spec, chosen.kind, resource)) {
    throw new HttpError(400, `${field}: this playbook does not run on this resource`, field);
  }
  return { kind: chosen.kind, resource };
}

interface ApprovalSpec {
  type?: string;
  approvers?: { people?: string[]; teams?: string[] };
}

function approvalOf(spec: Record<string, unknown>): ApprovalSpec | undefined {
  const approval = spec.approval;
  if (!approval || typeof approval !== 'object') return undefined;
  return approval as ApprovalSpec;
}

/** People (by id, email or name) and teams (by id or name) named as approvers. */
async function approverIds(
  pool: Pool,
  approval: ApprovalSpec,
): Promise<{ people: string[]; teams: string[] }> {
  const people = approval.approvers?.people ?? [];
  const teams = approval.approvers?.teams ?? [];
  const [peopleRows, teamRows] = await Promise.all([
    pool.query<{ id: string }>(
      `SELECT id FROM people WHERE deleted_at IS NULL AND (id::text = ANY($1) OR lower(email) = ANY($2) OR name = ANY($1))`,
      [people, people.map((entry) => entry.toLowerCase())],
    ),
    pool.query<{ id: string }>(
      `SELECT id FROM teams WHERE deleted_at IS NULL AND (id::text = ANY($1) OR name = ANY($1))`,
      [teams],
    ),
  ]);
  return { people: peopleRows.rows.map((row) => row.id), teams: teamRows.rows.map((row) => row.id) };
}

/** Whether the approvals given satisfy the playbook's `approval` (any: one; all: every person and every team). */
async function approvalSatisfied(pool: Pool, runId: string, approval: ApprovalSpec): Promise<boolean> {
  const { rows } = await pool.query<{ person_id: string | null; team_id: string | null }>(
    'SELECT person_id, team_id FROM playbook_approvals WHERE run_id = $1',
    [runId],
  );
  if (rows.length === 0) return false;
  if ((approval.type ?? 'any') !== 'all') return true;
  const ids = await approverIds(pool, approval);
  const people = new Set(rows.map((row) => row.person_id));
  const teams = new Set(rows.map((row) => row.team_id));
  return ids.people.every((id) => people.has(id)) && ids.teams.every((id) => teams.has(id));
}

/** The property that lets the person who started a run approve it too (default: not allowed). */
export const SELF_APPROVAL_PROPERTY = 'playbooks.approval.allow_self_approval';

/** Whether `personId` started this run and self-approval is not allowed. */
async function isRefusedSelfApproval(pool: Pool, runId: string, personId: string): Promise<boolean> {
  const { rows } = await pool.query<{ created_by: string | null }>(
    'SELECT created_by FROM playbook_runs WHERE id = $1',
    [runId],
  );
  if (!rows[0] || rows[0].created_by !== personId) return false;
  return !(await anyPropertyTrue(pool, [SELF_APPROVAL_PROPERTY]));
}

/** Whether this person may approve this run: playbook:approve, and named (or in a named team) when approvers are listed. */
async function approverTeams(
  pool: Pool,
  personId: string,
  approval: ApprovalSpec,
): Promise<{ ok: boolean; teams: string[]; asPerson: boolean }> {
  const ids = await approverIds(pool, approval);
  const listed = (approval.approvers?.people?.length ?? 0) + (approval.approvers?.teams?.length ?? 0) > 0;
  const asPerson = ids.people.includes(personId);
  const { rows } = await pool.query<{ team_id: string }>(
    'SELECT team_id FROM team_members WHERE person_id = $1 AND team_id = ANY($2::uuid[])',
    [personId, ids.teams],
  );
  const teams = rows.map((row) => row.team_id);
  return { ok: !listed || asPerson || teams.length > 0, teams, asPerson: asPerson || !listed };
}

const RUN_LIST_COLUMNS = `r.id, r.playbook_id, r.parent_id, r.status, r.parameters, r.config_id, r.component_id, r.check_id,
  r.error, r.scheduled_time, r.start_time, r.end_time, r.created_by, r.created_at, r.updated_at,
  jsonb_build_object('id', p.id, 'name', p.name, 'title', p.title, 'icon', p.spec ->> 'icon') AS playbook,
  coalesce(ci.name, co.name, ch.name) AS resource_name,
  CASE WHEN r.request ->> 'trigger' IS NULL THEN NULL
       ELSE jsonb_build_object('type', r.request ->> 'trigger',
         'detail', CASE r.request ->> 'trigger'
                     WHEN 'person' THEN (SELECT pe.name FROM people pe WHERE pe.id = r.created_by)
                     WHEN 'event' THEN r.request ->> 'event'
                     WHEN 'webhook' THEN r.request ->> 'path'
                     WHEN 'schedule' THEN r.request ->> 'schedule'
                   END) END AS started_by`;
const RUN_LIST_FROM = `FROM playbook_runs r JOIN playbooks p ON p.id = r.playbook_id
  LEFT JOIN config_items ci ON ci.id = r.config_id
  LEFT JOIN components co ON co.id = r.component_id
  LEFT JOIN checks ch ON ch.id = r.check_id`;

function iso(value: unknown): string | null {
  return value instanceof Date ? value.toISOString() : (value as string | null);
}

function runListItem(row: Record<string, unknown>) {
  return {
    ...row,
    scheduled_time: iso(row.scheduled_time)!,
    start_time: iso(row.start_time),
    end_time: iso(row.end_time),
    created_at: iso(row.created_at)!,
    updated_at: iso(row.updated_at)!,
  } as PlaybookRunDetail['run'];
}

export async function playbookRoutes(
  appBase: FastifyInstance,
  options: { pool: Pool; secrets?: SecretBox },
): Promise<void> {
  const app = appBase.withTypeProvider<ZodTypeProvider>();
  const { pool } = options;
  // Runs carry sealed secret parameters and specs: every answer of these routes shows the mask.
  app.addHook('onSend', async (_request, _reply, payload) =>
    typeof payload === 'string' ? maskSealedText(payload) : payload,
  );

  app.get('/api/playbook/list', { schema: { querystring: playbookListQuerySchema } }, async (request) => {
    const read = await authorizeRequest(pool, request, 'playbooks', 'read');
    if (!read.allow) throw new HttpError(read.status, read.message);
    const chosen = targetOf(request.query);
    if (chosen === 'several')
      throw new HttpError(400, 'give one of config_id, component_id and check_id', 'config_id');
    if (!chosen) throw new HttpError(400, 'config_id, component_id or check_id is required', 'config_id');
    const resource = await loadResource(pool, chosen.kind, chosen.id);
    if (!resource) return [];
    const { rows } = await pool.query<{
      id: string;
      name: string;
      namespace: string;
      title: string | null;
      description: string | null;
      spec: Record<string, unknown>;
    }>(
      `SELECT id, name, namespace, title, description, spec FROM playbooks WHERE deleted_at IS NULL ORDER BY coalesce(title, name)`,
    );
    const list: PlaybookSummary[] = [];
    for (const row of rows) {
      if (!playbookAppliesTo(row.spec, chosen.kind, resource)) continue;
      const decision = await allowed(pool, request, 'playbook:run', row.id, request.query);
      if (!decision.allow) continue;
      list.push({
        id: row.id,
        name: row.name,
        namespace: row.namespace,
        title: row.title,
        description: row.description,
        icon: typeof row.spec.icon === 'string' ? row.spec.icon : null,
        category: typeof row.spec.category === 'string' ? row.spec.category : null,
        parameters: parametersOf(row.spec),
      });
    }
    return list;
  });

  app.post(
    '/api/playbook/:id/params',
    { schema: { params: playbookIdParamsSchema, body: playbookParamsRequestSchema } },
    async (request, reply) => {
      const playbook = await loadPlaybook(pool, request.params.id);
      if (!playbook) throw new HttpError(404, 'playbook not found', 'id');
      await refuseUnless(pool, request, 'playbook:run', playbook.id, request.body);
      const { kind, resource } = await resolveTarget(pool, request, playbook.spec, request.body);
      const params = renderParameters(parametersOf(playbook.spec), {
        ...templateVariables(kind, resource),
        user: request.auth
          ? { id: request.auth.person.id, name: request.auth.person.name, email: request.auth.person.email }
          : null,
      });
      // Settings §4: the parameter fetch is never cached.
      reply.header('cache-control', 'no-store');
      return { params };
    },
  );

  app.post('/api/playbook/run', { schema: { body: playbookRunRequestSchema } }, async (request, reply) => {
    const body = request.body;
    const playbook = await loadPlaybook(pool, body.id);
    if (!playbook) throw new HttpError(404, 'playbook not found', 'id');
    await refuseUnless(pool, request, 'playbook:run', playbook.id, body);
    await resolveTarget(pool, request, playbook.spec, body);
    const values = validateParameters(parametersOf(playbook.spec), body.params ?? {});
    const personId = request.auth?.person.id ?? null;
    const run = await createRun(pool, {
      playbook,
      target: body,
      parameters: values,
      request: { trigger: 'person', person_id: personId },
      createdBy: personId,
      secrets: options.secrets,
    });
    reply.status(201);
    return { run_id: run.id, starts_at: run.scheduled_time.toISOString() };
  });

  app.get('/api/playbook/runs', { schema: { querystring: playbookRunsQuerySchema } }, async (request) => {
    const read = await authorizeRequest(pool, request, 'playbook_runs', 'read');
    if (!read.allow) throw new HttpError(read.status, read.message);
    const query = request.query;
    const where: string[] = [];
    const values: unknown[] = [];
    const add = (sql: string, value: unknown) => {
      values.push(value);
      where.push(sql.replace('?', `$${values.length}`));
    };
    if (query.playbook) add('r.playbook_id = ?', query.playbook);
    if (query.status) add('r.status = ?', query.status);
    if (query.config_id) add('r.config_id = ?', query.config_id);
    if (query.component_id) add('r.component_id = ?', query.component_id);
    if (query.check_id) add('r.check_id = ?', query.check_id);
    if (query.from) add('r.created_at >= ?', query.from);
    if (query.to) add('r.created_at <= ?', query.to);
    const filter = where.length > 0 ? `WHERE ${where.join(' AND ')}` : '';
    const [page, count] = await Promise.all([
      pool.query<Record<string, unknown>>(
        `SELECT ${RUN_LIST_COLUMNS} ${RUN_LIST_FROM} ${filter} ORDER BY r.created_at DESC, r.id
          LIMIT ${query.pageSize} OFFSET ${query.pageIndex * query.pageSize}`,
        values,
      ),
      pool.query<{ total: number }>(`SELECT count(*)::int AS total ${RUN_LIST_FROM} ${filter}`, values),
    ]);
    return { data: page.rows.map(runListItem), totalEntries: count.rows[0].total };
  });

  app.get('/api/playbook/run/:id', { schema: { params: playbookIdParamsSchema } }, async (request) => {
    const read = await authorizeRequest(pool, request, 'playbook_runs', 'read');
    if (!read.allow) throw new HttpError(read.status, read.message);
    const { rows } = await pool.query<Record<string, unknown>>(
      `SELECT ${RUN_LIST_COLUMNS}, r.spec ${RUN_LIST_FROM} WHERE r.id = $1`,
      [request.params.id],
    );
    const row = rows[0];
    if (!row) throw new HttpError(404, 'run not found', 'id');
    const { spec, ...listed } = row as { spec: Record<string, unknown> | null };
    const [actions, artifacts, approvals] = await Promise.all([
      pool.query(
        `SELECT id, playbook_run_id, name, status, result, error, retry_count, scheduled_time, start_time, end_time, created_at, updated_at
           FROM playbook_run_actions WHERE playbook_run_id = $1 ORDER BY created_at`,
        [row.id],
      ),
      pool.query(
        `SELECT id, playbook_run_action_id, path, filename, content_type, size::int AS size, created_at
           FROM artifacts WHERE playbook_run_id = $1 AND deleted_at IS NULL ORDER BY created_at`,
        [row.id],
      ),
      pool.query(
        `SELECT a.id, a.run_id, a.person_id, a.team_id, a.created_at, pe.name AS person_name, t.name AS team_name
           FROM playbook_approvals a LEFT JOIN people pe ON pe.id = a.person_id LEFT JOIN teams t ON t.id = a.team_id
          WHERE a.run_id = $1 ORDER BY a.created_at`,
        [row.id],
      ),
    ]);
    const run = runListItem(listed);
    const target = {
      config_id: run.config_id ?? undefined,
      component_id: run.component_id ?? undefined,
      check_id: run.check_id ?? undefined,
    };
    const approval = approvalOf(spec ?? {});
    let approve = false;
    if (run.status === 'pending_approval' && approval && request.auth) {
      const decision = await allowed(pool, request, 'playbook:approve', run.playbook_id, target);
      approve =
        decision.allow &&
        (await approverTeams(pool, request.auth.person.id, approval)).ok &&
        !(await isRefusedSelfApproval(pool, String(run.id), request.auth.person.id));
    }
    const cancel =
      !PLAYBOOK_RUN_FINAL_STATUSES.includes(run.status) &&
      (await allowed(pool, request, 'playbook:run', run.playbook_id, target)).allow;
    const stamp = (entry: Record<string, unknown>) =>
      Object.fromEntries(
        Object.entries(entry).map(([key, value]) => [
          key,
          value instanceof Date ? value.toISOString() : value,
        ]),
      );
    return {
      run,
      actions: actions.rows.map(stamp),
      artifacts: artifacts.rows.map(stamp),
      approvals: approvals.rows.map(stamp),
      can: { approve, cancel },
    } as PlaybookRunDetail;
  });

  app.post(
    '/api/playbook/run/approve/:id',
    { schema: { params: playbookIdParamsSchema } },
    async (request) => {
      const { rows } = await pool.query<{
        id: string;
        playbook_id: string;
        status: PlaybookRunStatus;
        spec: Record<string, unknown> | null;
        config_id: string | null;
        component_id: string | null;
        check_id: string | null;
      }>(
        'SELECT id, playbook_id, status, spec, config_id, component_id, check_id FROM playbook_runs WHERE id = $1',
        [request.params.id],
      );
      const run = rows[0];
      if (!run) throw new HttpError(404, 'run not found', 'id');
      await refuseUnless(pool, request, 'playbook:approve', run.playbook_id, {
        config_id: run.config_id ?? undefined,
        component_id: run.component_id ?? undefined,
        check_id: run.check_id ?? undefined,
      });
      const approval = approvalOf(run.spec ?? {});
      if (run.status !== 'pending_approval' || !approval) {
        throw new HttpError(409, `the run is ${run.status}, not waiting for approval`, 'id');
      }
      const personId = request.auth!.person.id;
      const who = await approverTeams(pool, personId, approval);
      if (!who.ok) throw new HttpError(403, 'You are not an approver of this playbook');
      if (await isRefusedSelfApproval(pool, run.id, personId)) {
        throw new HttpError(403, 'You cannot approve a run you started');
      }
      const status = await withTransaction(pool, async (client) => {
        const locked = await client.query<{ status: string }>(
          'SELECT status FROM playbook_runs WHERE id = $1 FOR UPDATE',
          [run.id],
        );
        if (locked.rows[0]?.status !== 'pending_approval') {
          throw new HttpError(409, `the run is ${locked.rows[0]?.status}, not waiting for approval`, 'id');
        }
        const inserted: { id: string; person_id: string | null; team_id: string | null }[] = [];
        if (who.asPerson) {
          const result = await client.query<{ id: string; person_id: string | null; team_id: string | null }>(
            `INSERT INTO playbook_approvals (run_id, person_id) VALUES ($1, $2)
           ON CONFLICT (run_id, person_id) WHERE person_id IS NOT NULL DO NOTHING RETURNING id, person_id, team_id`,
            [run.id, personId],
          );
          inserted.push(...result.rows);
        }
        for (const teamId of who.teams) {
          const exists = await client.query(
            'SELECT 1 FROM playbook_approvals WHERE run_id = $1 AND team_id = $2',
            [run.id, teamId],
          );
          if (exists.rowCount) continue;
          const result = await client.query<{ id: string; person_id: string | null; team_id: string | null }>(
            'INSERT INTO playbook_approvals (run_id, team_id) VALUES ($1, $2) RETURNING id, person_id, team_id',
            [run.id, teamId],
          );
          inserted.push(...result.rows);
        }
        for (const approvalRow of inserted) {
          await enqueueEvent(client, 'playbook.approval.inserted', {
            id: approvalRow.id,
            run_id: run.id,
            playbook_id: run.playbook_id,
            approved_by: personId,
            person_id: approvalRow.person_id,
            team_id: approvalRow.team_id,
          });
        }
        if (await approvalSatisfied(client as unknown as Pool, run.id, approval)) {
          await setRunStatus(client, run.id, 'scheduled');
          await scheduleRun(client, run.id);
          return 'scheduled' as const;
        }
        return 'pending_approval' as const;
      });
      return { status };
    },
  );

  app.post(
    '/api/playbook/run/cancel/:id',
    { schema: { params: playbookIdParamsSchema } },
    async (request) => {
      const { rows } = await pool.query<{
        id: string;
        playbook_id: string;
        status: PlaybookRunStatus;
        config_id: string | null;
        component_id: string | null;
        check_id: string | null;
      }>(
        'SELECT id, playbook_id, status, config_id, component_id, check_id FROM playbook_runs WHERE id = $1',
        [request.params.id],
      );
      const run = rows[0];
      if (!run) throw new HttpError(404, 'run not found', 'id');
      await refuseUnless(pool, request, 'playbook:run', run.playbook_id, {
        config_id: run.config_id ?? undefined,
        component_id: run.component_id ?? undefined,
        check_id: run.check_id ?? undefined,
      });
      if (PLAYBOOK_RUN_FINAL_STATUSES.includes(run.status)) {
        throw new HttpError(409, `the run is already ${run.status}`, 'id');
      }
      await withTransaction(pool, async (client) => {
        await setRunStatus(client, run.id, 'cancelled', {
          error: `cancelled by ${request.auth!.person.name}`,
        });
        await client.query(
          `UPDATE playbook_run_actions SET status = 'skipped', end_time = now()
          WHERE playbook_run_id = $1 AND status IN ('scheduled', 'sleeping')`,
          [run.id],
        );
      });
      return { status: 'cancelled' as const };
    },
  );

  app.get(
    '/api/artifacts/download/:id',
    { schema: { params: playbookIdParamsSchema } },
    async (request, reply) => {
      const read = await authorizeRequest(pool, request, 'playbook_runs', 'read', { object: 'artifact' });
      if (!read.allow) throw new HttpError(read.status, read.message);
      const { rows } = await pool.query<{ filename: string; content_type: string | null; content: Buffer }>(
        `SELECT a.filename, a.content_type, c.content FROM artifacts a JOIN artifact_contents c ON c.artifact_id = a.id
        WHERE a.id = $1 AND a.deleted_at IS NULL`,
        [request.params.id],
      );
      const artifact = rows[0];
      if (!artifact) throw new HttpError(404, 'artifact not found', 'id');
      reply.header('content-type', artifact.content_type ?? 'application/octet-stream');
      reply.header('content-disposition', `attachment; filename="${artifact.filename.replace(/"/g, '')}"`);
      return reply.send(artifact.content);
    },
  );
}
