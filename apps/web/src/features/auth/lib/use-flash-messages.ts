import { useEffect, useState } from 'react';

/** Spec core §9 and settings §9: login and settings messages disappear after 10 s. */
export const FLOW_MESSAGE_LIFETIME_MS = 10_000;

/** Whether messages that appeared with `version` are still shown; each new version shows again. */
export function useFlashVisible(version: unknown, lifetimeMs = FLOW_MESSAGE_LIFETIME_MS): boolean {
  const [hiddenVersion, setHiddenVersion] = useState<unknown>(undefined);
  useEffect(() => {
    const timer = setTimeout(() => setHiddenVersion(() => version), lifetimeMs);
    return () => clearTimeout(timer);
  }, [version, lifetimeMs]);
  return hiddenVersion !== version;
}
