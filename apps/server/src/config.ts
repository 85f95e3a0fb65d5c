import { AuthConfigError, loadAuthConfig, type AuthConfig } from './modules/auth/index.js';
import { ConfigError, loadPlatformConfig, type PlatformConfig } from './platform/config.js';

export { ConfigError, PROJECT_ROOT } from './platform/config.js';

/**
 * The whole configuration: the platform's settings and each module's own (sign-in, sessions,
 * email and OpenID Connect: modules/auth/auth-config.ts). Composed here, above the platform, so
 * that `platform/` imports no module.
 */
export interface OpsdeckConfig extends PlatformConfig {
  auth: AuthConfig;
}

/** Reads the configuration from environment variables; throws ConfigError naming each bad variable. */
export function loadConfig(environment: NodeJS.ProcessEnv = process.env): OpsdeckConfig {
  const platform = loadPlatformConfig(environment);
  let auth: AuthConfig;
  try {
    auth = loadAuthConfig(environment);
  } catch (error) {
    if (error instanceof AuthConfigError) throw new ConfigError(error.problems);
    throw error;
  }
  return { ...platform, auth };
}
