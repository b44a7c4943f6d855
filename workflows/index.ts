// Every workflow the worker runs. Workflows import only types from activities/.
export { apiKeyNotification } from './api-key-notification';
export { syncConnection } from './sync-connection';
