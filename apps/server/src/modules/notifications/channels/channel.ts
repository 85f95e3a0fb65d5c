/**
 * One interface for every delivery channel: a channel turns a rendered message into its
 * provider's documented API call. Channels are picked by the scheme of the recipient's service
 * URL (`slack://…`, `smtp://…`, `https://…` for a plain webhook).
 */
export interface RenderedMessage {
  title: string;
  body: string;
}

export interface HttpRequest {
  url: string;
  method: 'GET' | 'POST' | 'PUT';
  headers: Record<string, string>;
  body?: string;
  /** Skip TLS verification (the connection's Insecure TLS). */
  insecureTls?: boolean;
}

export interface HttpResponse {
  status: number;
  text: string;
}

export interface ChannelContext {
  /** Sends one HTTP request; throws DeliveryError on a network error or a non-2xx answer. */
  http(request: HttpRequest): Promise<HttpResponse>;
  /** The system SMTP server (SMTP_URL, SMTP_FROM), for email recipients. */
  smtp?: { url: string; from: string };
  signal?: AbortSignal;
}

export interface Channel {
  /** The provider's name as the send history shows it. */
  readonly name: string;
  readonly schemes: readonly string[];
  send(target: URL, message: RenderedMessage, context: ChannelContext): Promise<void>;
}

/** A delivery that did not succeed; the message never carries the target URL (it holds tokens). */
export class DeliveryError extends Error {
  override readonly name = 'DeliveryError';
}

/** A query parameter, case-insensitive (service URLs come from people's hands). */
export function param(target: URL, key: string): string | undefined {
  for (const [name, value] of target.searchParams) if (name.toLowerCase() === key.toLowerCase()) return value;
  return undefined;
}

/** `https://host[:port]` of a self-hosted provider; `disabletls=yes` or `scheme=http` for plain HTTP. */
export function originOf(target: URL, fallbackHost?: string): string {
  const host = target.host || fallbackHost;
  if (!host) throw new DeliveryError('the service URL has no host');
  const plain =
    /^(yes|true|1)$/i.test(param(target, 'disabletls') ?? '') || param(target, 'scheme') === 'http';
  return `${plain ? 'http' : 'https'}://${host}`;
}

export function decoded(value: string): string {
  return decodeURIComponent(value);
}

/** The path segments after the host, decoded, without empty ones. */
export function segments(target: URL): string[] {
  return target.pathname
    .split('/')
    .filter((part) => part !== '')
    .map(decoded);
}

export function json(url: string, body: unknown, headers: Record<string, string> = {}): HttpRequest {
  return {
    url,
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify(body),
  };
}

/** Title and body as one text, for providers with a single text field. */
export function joined(message: RenderedMessage): string {
  return message.title ? `${message.title}\n\n${message.body}`.trim() : message.body;
}
