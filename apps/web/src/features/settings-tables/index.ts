/** Spec core §2: the generic settings resources, /settings/{table} and /settings/{table}/{id}. */
export { SettingsTablePage, NO_RESOURCES_MESSAGE, settingsTablePath } from './components/settings-table-page';
export { SettingsResourceEditorPage } from './components/settings-resource-editor-page';
