export { CanariesPage } from './components/canaries-page';
export { CanaryEditorPage } from './components/canary-editor-page';
