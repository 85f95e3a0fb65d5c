import {
  PlaybookEditorPage,
  PlaybookRunPage,
  PlaybookRunsPage,
  PlaybooksPage,
} from '../../features/playbooks';
import { RouteGuard } from '../guards/route-guard';

/** Spec core §2: /playbooks, /playbooks/runs and /playbooks/runs/{id}, off while playbooks is disabled. */
export function PlaybooksRoute() {
  return (
    <RouteGuard resource="playbooks" action="read" feature="playbooks">
      <PlaybooksPage />
    </RouteGuard>
  );
}

export function PlaybookEditorRoute() {
  return (
    <RouteGuard resource="playbooks" action="read" feature="playbooks">
      <PlaybookEditorPage />
    </RouteGuard>
  );
}

export function PlaybookRunsRoute() {
  return (
    <RouteGuard resource="playbook_runs" action="read" feature="playbooks">
      <PlaybookRunsPage />
    </RouteGuard>
  );
}

export function PlaybookRunRoute() {
  return (
    <RouteGuard resource="playbook_runs" action="read" feature="playbooks">
      <PlaybookRunPage />
    </RouteGuard>
  );
}
