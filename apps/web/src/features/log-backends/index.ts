/** Settings §2.5: the logging backends list and form (/settings/log-backends). */
export { LogBackendsPage, LOG_BACKENDS_PATH } from './components/log-backends-page';
export { LogBackendEditorPage } from './components/log-backend-editor-page';
