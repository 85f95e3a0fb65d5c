export { ViewByIdPage, ViewByNamePage, ConfigViewPage, ViewContent } from './components/view-page';
export { ViewsSettingsPage, VIEWS_SETTINGS_PATH } from './components/views-settings-page';
export { ViewEditorPage } from './components/view-editor-page';
export { ConfigViewTabs } from './components/config-view-tabs';
export { useSidebarViews } from './api/views-list';
