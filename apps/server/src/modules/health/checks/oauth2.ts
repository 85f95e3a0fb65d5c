/**
 * OAuth 2 client credentials for the http check's `oauth2` (`clientID`, `clientSecret`,
 * `tokenURL`, `scopes`, `params`): a token is fetched from the token endpoint before the request
 * and sent as a bearer token, as Go's clientcredentials package does.
 */
export interface ClientCredentials {
  clientId: string;
  clientSecret: string;
  tokenUrl: string;
  scopes: string[];
  params: Record<string, string>;
}

export async function fetchClientCredentialsToken(
  credentials: ClientCredentials,
  signal: AbortSignal,
): Promise<string> {
  const form = new URLSearchParams({ grant_type: 'client_credentials', ...credentials.params });
  if (credentials.scopes.length > 0) form.set('scope', credentials.scopes.join(' '));
  const basic = Buffer.from(
    `${encodeURIComponent(credentials.clientId)}:${encodeURIComponent(credentials.clientSecret)}`,
  ).toString('base64');
  let response: Response;
  try {
    response = await fetch(credentials.tokenUrl, {
      method: 'POST',
      headers: {
        authorization: `Basic ${basic}`,
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
      },
      body: form.toString(),
      signal,
    });
  } catch (error) {
    throw new Error(`oauth2: token request to ${credentials.tokenUrl} failed: ${(error as Error).message}`);
  }
  const text = await response.text();
  if (!response.ok)
    throw new Error(`oauth2: token endpoint answered ${response.status}: ${text.slice(0, 200)}`);
  let token: unknown;
  try {
    const parsed = JSON.parse(text) as { access_token?: unknown };
    token = parsed.access_token;
  } catch {
    token = new URLSearchParams(text).get('access_token');
  }
  if (typeof token !== 'string' || token === '')
    throw new Error('oauth2: the token endpoint returned no access_token');
  return token;
}
