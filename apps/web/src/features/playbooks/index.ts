/** Playbooks (issue 24): the list and editor, the run dialog and menu, the runs list and run page. */
export { PlaybooksPage, PLAYBOOKS_PATH } from './components/playbooks-page';
export { PlaybookEditorPage, NEW_PLAYBOOK_ID } from './components/playbook-editor-page';
export { PlaybookRunsPage } from './components/playbook-runs-page';
export { PlaybookRunPage } from './components/playbook-run-page';
export { PlaybooksMenu } from './components/playbooks-menu';
export { RunPlaybookDialog } from './components/run-playbook-dialog';
