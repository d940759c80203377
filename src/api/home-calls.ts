/**
 * The calls the dashboard makes when it opens (src/api/home.ts makes them; src/app/member-preload.ts asks
 * them ahead while the dashboard's code loads). Only paths here: the public bundle imports this.
 */
export const DASHBOARD_CALLS = ['/api/home/dashboard', '/api/home/dashboard/extra', '/api/home/promotions'] as const;
