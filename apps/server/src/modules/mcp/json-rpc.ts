/**
 * JSON-RPC 2.0 as MCP uses it: message shapes, the standard error codes and helpers to answer.
 */

export const JSONRPC_VERSION = '2.0';

/** Standard JSON-RPC error codes, plus the server-defined ones this endpoint uses. */
export const RPC_ERRORS = {
  PARSE_ERROR: -32700,
  INVALID_REQUEST: -32600,
  METHOD_NOT_FOUND: -32601,
  INVALID_PARAMS: -32602,
  INTERNAL_ERROR: -32603,
  /** Server-defined: the caller may not use the MCP endpoint (token scope). */
  FORBIDDEN: -32001,
} as const;

export type RequestId = string | number;

export interface JsonRpcRequest {
  jsonrpc: '2.0';
  id: RequestId;
  method: string;
  params?: Record<string, unknown>;
}

export interface JsonRpcNotification {
  jsonrpc: '2.0';
  method: string;
  params?: Record<string, unknown>;
}

export interface JsonRpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

export type JsonRpcResponse =
  | { jsonrpc: '2.0'; id: RequestId; result: unknown }
  | { jsonrpc: '2.0'; id: RequestId | null; error: JsonRpcErrorObject };

/** An error a method handler throws to answer with a JSON-RPC error. */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'RpcError';
  }
}

/** -32602 naming the parameter that is wrong. */
export function invalidParams(message: string, field: string): RpcError {
  return new RpcError(RPC_ERRORS.INVALID_PARAMS, message, { field });
}

export function errorResponse(id: RequestId | null, error: JsonRpcErrorObject): JsonRpcResponse {
  return { jsonrpc: JSONRPC_VERSION, id, error };
}

export function resultResponse(id: RequestId, result: unknown): JsonRpcResponse {
  return { jsonrpc: JSONRPC_VERSION, id, result };
}

/** What one element of a POST body turned out to be. */
export type ClassifiedMessage =
  | { kind: 'request'; message: JsonRpcRequest }
  | { kind: 'notification'; message: JsonRpcNotification }
  /** A client's answer to a server request: this server sends none, so it is acknowledged. */
  | { kind: 'response' }
  | { kind: 'invalid'; id: RequestId | null; message: string };

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function isRequestId(value: unknown): value is RequestId {
  return typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));
}

/** The id of a message if it has a usable one (to address an error to it). */
export function idOf(value: unknown): RequestId | null {
  return isRecord(value) && isRequestId(value.id) ? value.id : null;
}

/** Sorts a parsed message into request, notification, response or invalid (-32600). */
export function classifyMessage(value: unknown): ClassifiedMessage {
  if (!isRecord(value)) {
    return { kind: 'invalid', id: null, message: 'A JSON-RPC message must be an object' };
  }
  const id = idOf(value);
  if (value.jsonrpc !== JSONRPC_VERSION) {
    return { kind: 'invalid', id, message: 'The jsonrpc member must be exactly "2.0"' };
  }
  if (!('method' in value)) {
    if ('id' in value && ('result' in value || 'error' in value)) return { kind: 'response' };
    return { kind: 'invalid', id, message: 'The method member is missing' };
  }
  if (typeof value.method !== 'string' || value.method === '') {
    return { kind: 'invalid', id, message: 'The method member must be a non-empty string' };
  }
  if ('params' in value && value.params !== undefined && !isRecord(value.params)) {
    return { kind: 'invalid', id, message: 'The params member must be an object' };
  }
  const params = value.params as Record<string, unknown> | undefined;
  if (!('id' in value)) {
    return {
      kind: 'notification',
      message: { jsonrpc: JSONRPC_VERSION, method: value.method, ...(params ? { params } : {}) },
    };
  }
  if (!isRequestId(value.id)) {
    return { kind: 'invalid', id: null, message: 'The id member must be a string or a number' };
  }
  return {
    kind: 'request',
    message: { jsonrpc: JSONRPC_VERSION, id: value.id, method: value.method, ...(params ? { params } : {}) },
  };
}
