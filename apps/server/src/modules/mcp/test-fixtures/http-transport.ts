import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/**
 * The headers and answers of the SDK's StreamableHTTPClientTransport, POST only (that transport
 * cannot load under vitest: the workspace's `source` resolve condition makes Node load
 * eventsource-parser's TypeScript sources). The SDK's Client does the protocol on top.
 */
export function httpTransport(url: string, token: string): Transport {
  let protocolVersion: string | undefined;
  const transport: Transport = {
    async start() {},
    async close() {
      transport.onclose?.();
    },
    setProtocolVersion(version) {
      protocolVersion = version;
    },
    async send(message: JSONRPCMessage) {
      const response = await fetch(url, {
        method: 'POST',
        headers: {
          accept: 'application/json, text/event-stream',
          'content-type': 'application/json',
          authorization: `Bearer ${token}`,
          ...(protocolVersion ? { 'mcp-protocol-version': protocolVersion } : {}),
        },
        body: JSON.stringify(message),
      });
      if (response.status === 202) return;
      const answer = (await response.json()) as JSONRPCMessage | JSONRPCMessage[];
      for (const item of Array.isArray(answer) ? answer : [answer]) transport.onmessage?.(item);
    },
  };
  return transport;
}
