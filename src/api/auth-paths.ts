/**
 * The paths of the first calls a visitor's browser makes (the boot call, the sign-in check, the sign-in
 * fields): named once for the client (./auth.ts), the page head that asks them early (src/entry-head.ts)
 * and the server that answers them along with the sign-in page (server/page-render.ts).
 */
export const AUTH_DUMMY_PATH = '/api/auth/dummy';
export const AUTH_CHECK_PATH = '/api/auth_check';
export const LOGIN_FIELDS_PATH = '/api/auth/login_fields';
