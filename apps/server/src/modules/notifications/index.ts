/** The notifications module: Notification and NotificationSilence resources, send history (see README.md). */
export { notificationKind } from './notification-kind.js';
export { notificationSilenceKind } from './notification-silence-kind.js';
export { notificationsModule } from './module.js';
export {
  sendDirectMessage,
  type DirectMessage,
  type DirectSendOptions,
  type DirectSendResult,
} from './send-message.js';
