/** The `/client/v4` API double over every product: `CloudflareApi`. */
export { CloudflareApi, type CloudflareApiOptions, type EventNotificationInit } from './cloudflare-api.js';
/** R2's event notifications: a rule as the API shows it, and the body a consumer receives (`MessageBatch<R2EventNotification>`). */
export type {
  NotificationRule,
  NotificationAction,
  NotificationMessage as R2EventNotification,
} from '../bucket/notifications.js';
/** Sippy's source: the S3-compatible endpoint standing in for AWS and GCS (lib/r2-api/sippy.ts). */
export { useSippySource, type SippyEndpoint } from '../r2-api/sippy.js';
