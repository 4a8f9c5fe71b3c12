/** The API's request-body rules live with the `/client/v4` router (lib/api/body.ts); kept here for existing imports. */
export * from '../api/body.js';
