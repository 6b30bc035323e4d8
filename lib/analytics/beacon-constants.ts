/** Where the beacon posts each view (app/api/analytics/view/route.ts). */
export const BEACON_PATH = '/api/analytics/view'
/** The first touch of the session, shared with lib/attribution.ts. */
export const FIRST_TOUCH_KEY = 'vigia:first-touch'
