import { DeliveryError, param, type Channel } from './channel.js';

/**
 * Generic webhook: `generic+https://HOST/PATH?…`, `generic://HOST/PATH` (https; `disabletls=yes`
 * for http) or a plain `https://…` / `http://…` URL. POST (or GET with `method=GET`) of
 * `{<titleKey>: title, <messageKey>: message}` as `contentType` (default application/json;
 * messagekey default "message", titlekey default "title"). Other query parameters of a generic://
 * URL starting with `@` become headers (`@Authorization=…`); `$key=value` adds body fields.
 */
export const webhookChannel: Channel = {
  name: 'webhook',
  schemes: ['generic', 'generic+http', 'generic+https', 'http', 'https', 'webhook'],
  async send(target, message, context) {
    const scheme = target.protocol.slice(0, -1);
    const own = ['contenttype', 'method', 'messagekey', 'titlekey', 'disabletls', 'template'];
    const headers: Record<string, string> = {};
    const extra: Record<string, string> = {};
    let url: URL;
    if (scheme === 'http' || scheme === 'https') {
      url = new URL(target.href);
    } else {
      const plain = scheme === 'generic+http' || /^(yes|true|1)$/i.test(param(target, 'disabletls') ?? '');
      url = new URL(`${plain ? 'http' : 'https'}://${target.host}${target.pathname}`);
      if (target.username || target.password) {
        url.username = target.username;
        url.password = target.password;
      }
      for (const [key, value] of target.searchParams) {
        if (own.includes(key.toLowerCase())) continue;
        if (key.startsWith('@')) headers[key.slice(1)] = value;
        else if (key.startsWith('$')) extra[key.slice(1)] = value;
        else url.searchParams.append(key, value);
      }
    }
    if (url.username || url.password) {
      headers.Authorization = `Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString('base64')}`;
      url.username = '';
      url.password = '';
    }
    const generic = scheme !== 'http' && scheme !== 'https';
    const method = (generic ? param(target, 'method') : undefined)?.toUpperCase() ?? 'POST';
    if (method !== 'POST' && method !== 'GET') throw new DeliveryError('webhook: method must be POST or GET');
    const messageKey = (generic ? param(target, 'messagekey') : undefined) ?? 'message';
    const titleKey = (generic ? param(target, 'titlekey') : undefined) ?? 'title';
    const contentType = (generic ? param(target, 'contenttype') : undefined) ?? 'application/json';
    const fields = { ...extra, [titleKey]: message.title, [messageKey]: message.body };
    if (method === 'GET') {
      for (const [key, value] of Object.entries(fields)) url.searchParams.set(key, value);
      await context.http({ url: url.href, method: 'GET', headers });
      return;
    }
    const body = /json/i.test(contentType) ? JSON.stringify(fields) : new URLSearchParams(fields).toString();
    await context.http({
      url: url.href,
      method: 'POST',
      headers: { 'Content-Type': contentType, ...headers },
      body,
    });
  },
};
