/**
 * The calls the dashboard makes when it opens (src/api/home.ts makes them; src/app/member-preload.ts asks
 * them ahead while the dashboard's code loads). Only paths here: the public bundle imports this.
 */
export const DASHBOARD_SUMMARY_PATH = '/api/home/dashboard';
export const DASHBOARD_EXTRA_PATH = '/api/home/dashboard/extra';
export const PROMOTIONS_PATH = '/api/home/promotions';

export const DASHBOARD_CALLS = [DASHBOARD_SUMMARY_PATH, DASHBOARD_EXTRA_PATH, PROMOTIONS_PATH] as const;
/** The call the dashboard's figures are drawn from: asked first, alone. */
export const DASHBOARD_FIRST_CALLS = [DASHBOARD_SUMMARY_PATH] as const;
/** The rest of the dashboard: asked once the figures' call has answered, so that they do not share the server with it. */
export const DASHBOARD_LATER_CALLS = [DASHBOARD_EXTRA_PATH, PROMOTIONS_PATH] as const;
