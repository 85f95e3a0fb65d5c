import type { FastifyInstance } from 'fastify';
import { isApiPath } from './static-web.js';

/**
 * The Content-Security-Policy of the web app's pages. Scripts only from this origin: the built
 * index.html loads one module script and no inline script. Styles also allow inline ones:
 * react-hot-toast (goober) writes its styles into a `<style>` element, CodeMirror may too, and
 * components set `style` attributes. Images may come from https (avatars are URLs) and data:.
 * No page may frame the app (clickjacking), and no plugin content loads.
 */
export const WEB_APP_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob: https:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** API answers (JSON, metrics, artifact downloads) are never a document that runs anything. */
export const API_CSP = "default-src 'none'; frame-ancestors 'none'";

/** The path as the router sees it (`/%61pi//x` is `/api/x`), so no spelling gets the web CSP onto an API answer. */
function routedPath(url: string): string {
  const index = url.indexOf('?');
  const raw = index === -1 ? url : url.slice(0, index);
  let decoded = raw;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    // Not valid percent-encoding: judged as sent.
  }
  return decoded.replace(/\/+/g, '/');
}

/**
 * Security headers on every answer, web app and API alike: a CSP (the web app's on its pages and
 * assets, a deny-all one on API paths), no framing, no MIME sniffing, and no Referer at all (recovery and
 * verification links carry one-time tokens in their query). A route that already set one of
 * these headers keeps its own.
 */
export function registerSecurityHeaders(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    // By path, not by content type: a 304 revalidating index.html has no content type, and the
    // browser would keep the headers of the 304 for the cached page.
    const headers: Record<string, string> = {
      'content-security-policy': isApiPath(routedPath(request.url)) ? API_CSP : WEB_APP_CSP,
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'DENY',
      'referrer-policy': 'no-referrer',
      'cross-origin-opener-policy': 'same-origin',
    };
    for (const [name, value] of Object.entries(headers)) {
      if (!reply.hasHeader(name)) reply.header(name, value);
    }
    return payload;
  });
}
