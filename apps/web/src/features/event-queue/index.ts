export { EventQueuePage } from './components/event-queue-page';
