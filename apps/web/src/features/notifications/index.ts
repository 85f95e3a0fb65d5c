export { NotificationHistoryPage } from './components/notification-history-page';
export { NotificationRulesPage } from './components/notification-rules-page';
export { SilencesPage } from './components/silences-page';
export { AddSilencePage } from './components/add-silence-page';
export { NotificationBell } from './components/notification-bell';
