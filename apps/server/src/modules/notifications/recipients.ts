import type { Pool } from '../../platform/db/pool.js';
import { findPersonId, findTeamId } from '../auth/index.js';
import {
  parseConnectionReference,
  type ConnectionResolver,
  type OpenedConnection,
} from '../resources/index.js';
import { channelFor } from './channels/index.js';

/** Where one message goes. `label` names it in the history and never holds credentials. */
export interface Recipient {
  key: string;
  label: string;
  url?: URL;
  insecureTls?: boolean;
  personId?: string;
  teamId?: string;
  connectionId?: string;
  /** A playbook (`namespace/name`) the notification runs instead of sending a message. */
  playbook?: string;
  /** Why this recipient cannot be sent to (recorded as a failed attempt). */
  problem?: string;
}

/** The `to` (or `fallback`) block of a Notification, and the columns the UI's save writes. */
export interface RecipientSpec {
  person?: string;
  team?: string;
  email?: string;
  connection?: string;
  url?: string;
  playbook?: string;
  properties?: Record<string, string>;
}

export interface RuleRecipients {
  to?: RecipientSpec;
  person_id?: string | null;
  team_id?: string | null;
  custom_services?: unknown;
}

/** The scheme and host of a service URL: enough to say where, without tokens. */
export function safeLabel(url: URL): string {
  if (url.protocol === 'mailto:') return decodeURIComponent(url.pathname);
  return `${url.protocol}//${url.hostname}`;
}

function withProperties(url: URL, properties: Record<string, string> | undefined): URL {
  for (const [key, value] of Object.entries(properties ?? {})) {
    if (!url.searchParams.has(key)) url.searchParams.set(key, value);
  }
  return url;
}

/**
 * The service URL of a notification-type connection (spec settings §3: "notification types build
 * a service URL from their fields"): its `url` when that already is one (credentials filled in
 * from username/password when the URL has none), else built from its type's fields.
 */
export function connectionServiceUrl(connection: OpenedConnection): URL | undefined {
  const props = Object.fromEntries(
    Object.entries(connection.properties ?? {}).map(([key, value]) => [key.toLowerCase(), value]),
  );
  const user = connection.username ?? '';
  const password = connection.password ?? '';
  const enc = encodeURIComponent;
  if (connection.url) {
    try {
      const url = new URL(connection.url);
      if (channelFor(url)) {
        if (!url.username && user) url.username = enc(user);
        if (!url.password && password) url.password = enc(password);
        return url;
      }
    } catch {
      // Not a URL: fall through to the type's fields.
    }
  }
  const type = (connection.type ?? '').toLowerCase().replace(/[^a-z]/g, '');
  const host = props.host ?? connection.url ?? '';
  switch (type) {
    case 'email':
    case 'smtp': {
      const url = new URL(`smtp://${host}:${props.port ?? '587'}/`);
      if (user) url.username = enc(user);
      if (password) url.password = enc(password);
      if (props.fromaddress) url.searchParams.set('from', props.fromaddress);
      if (props.fromname) url.searchParams.set('fromname', props.fromname);
      if (props.to) url.searchParams.set('to', props.to);
      return url;
    }
    case 'slack':
      return new URL(
        `slack://${props.botname ? `${enc(props.botname)}@` : ''}${enc(password || props.token || props.bottoken || '')}/${enc(props.channel ?? '')}`,
      );
    case 'discord':
      return new URL(`discord://${enc(password || props.token || '')}@${enc(props.webhookid ?? user)}`);
    case 'telegram':
      return new URL(
        `telegram://${enc(password || props.token || '')}@telegram?chats=${enc(props.chats ?? '')}`,
      );
    case 'ntfy':
      return new URL(
        `ntfy://${user ? `${enc(user)}:${enc(password)}@` : ''}${host || 'ntfy.sh'}/${enc(props.topic ?? '')}`,
      );
    case 'pushover':
      return new URL(`pushover://shoutrrr:${enc(password || props.token || '')}@${enc(props.user ?? user)}/`);
    case 'webhook':
    case 'genericwebhook':
    case 'generic':
      return withProperties(new URL(host), {});
    default:
      return undefined;
  }
}

async function emailsOfPerson(pool: Pool, personId: string): Promise<string | null> {
  const { rows } = await pool.query<{ email: string | null }>('SELECT email FROM people WHERE id = $1', [
    personId,
  ]);
  return rows[0]?.email ?? null;
}

/** Resolves a recipient block to concrete destinations (a team fans out to its members' emails). */
export async function resolveRecipients(
  pool: Pool,
  spec: RuleRecipients,
  resolveConnection: ConnectionResolver,
): Promise<Recipient[]> {
  const to = spec.to ?? {};
  const out: Recipient[] = [];
  const mail = (address: string, extra: Partial<Recipient> = {}): Recipient => ({
    key: `email:${address.toLowerCase()}`,
    label: address,
    url: new URL(`mailto:${encodeURIComponent(address)}`),
    ...extra,
  });
  for (const address of (to.email ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)) {
    out.push(mail(address));
  }
  const personIds = new Set<string>();
  if (to.person) {
    const id = await findPersonId(pool, to.person);
    if (id) personIds.add(id);
    else
      out.push({
        key: `person:${to.person}`,
        label: to.person,
        problem: `person ${to.person} was not found`,
      });
  }
  if (spec.person_id) personIds.add(spec.person_id);
  for (const personId of personIds) {
    const email = await emailsOfPerson(pool, personId);
    if (email) out.push(mail(email, { key: `person:${personId}`, personId }));
    else
      out.push({
        key: `person:${personId}`,
        label: personId,
        personId,
        problem: 'the person has no email address',
      });
  }
  const teamIds = new Set<string>();
  if (to.team) {
    const id = await findTeamId(pool, to.team);
    if (id) teamIds.add(id);
    else out.push({ key: `team:${to.team}`, label: to.team, problem: `team ${to.team} was not found` });
  }
  if (spec.team_id) teamIds.add(spec.team_id);
  for (const teamId of teamIds) {
    const { rows } = await pool.query<{ id: string; email: string }>(
      `SELECT p.id, p.email FROM team_members m JOIN people p ON p.id = m.person_id
        WHERE m.team_id = $1 AND p.deleted_at IS NULL AND p.email IS NOT NULL ORDER BY p.email`,
      [teamId],
    );
    if (rows.length === 0)
      out.push({
        key: `team:${teamId}`,
        label: teamId,
        teamId,
        problem: 'the team has no members with an email address',
      });
    for (const row of rows)
      out.push(mail(row.email, { key: `team:${teamId}:${row.id}`, teamId, personId: row.id }));
  }
  const connections: string[] = [];
  if (to.connection) connections.push(to.connection);
  const services: string[] = [];
  if (to.url) services.push(to.url);
  if (Array.isArray(spec.custom_services)) {
    for (const entry of spec.custom_services as { connection?: string; url?: string }[]) {
      if (entry?.connection) connections.push(entry.connection);
      if (entry?.url) services.push(entry.url);
    }
  }
  for (const reference of connections) {
    const { namespace, name } = parseConnectionReference(reference);
    const label = `connection://${namespace}/${name}`;
    const key = `connection:${namespace}/${name}`;
    let connection: OpenedConnection | undefined;
    try {
      connection = await resolveConnection(reference);
    } catch (error) {
      out.push({ key, label, problem: (error as Error).message });
      continue;
    }
    if (!connection) {
      out.push({ key, label, problem: `connection ${namespace}/${name} was not found` });
      continue;
    }
    const { rows } = await pool.query<{ id: string }>(
      'SELECT id FROM connections WHERE namespace = $1 AND name = $2 AND deleted_at IS NULL',
      [namespace, name],
    );
    let url: URL | undefined;
    try {
      url = connectionServiceUrl(connection);
    } catch {
      url = undefined;
    }
    if (url && to.properties) withProperties(url, to.properties);
    out.push(
      url && channelFor(url)
        ? { key, label, url, insecureTls: connection.insecureTls, connectionId: rows[0]?.id }
        : {
            key,
            label,
            connectionId: rows[0]?.id,
            problem: `connection ${namespace}/${name} (${connection.type ?? 'no type'}) is not a notification channel`,
          },
    );
  }
  for (const text of services) {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      out.push({ key: `url:${text.slice(0, 20)}`, label: 'url', problem: 'the url recipient is not a URL' });
      continue;
    }
    if (to.properties) withProperties(url, to.properties);
    const label = safeLabel(url);
    out.push(
      channelFor(url)
        ? { key: `url:${text}`, label, url }
        : { key: `url:${label}`, label, problem: `no channel for ${url.protocol}// URLs` },
    );
  }
  if (to.playbook) {
    out.push({
      key: `playbook:${to.playbook}`,
      label: `playbook ${to.playbook}`,
      playbook: to.playbook,
    });
  }
  return out;
}
