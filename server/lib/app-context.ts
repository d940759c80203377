/** What every route module is given: the database, the config and the shared services of one server. */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../config';
import type { Database } from '../db/client';
import type { Outbox } from './outbox';
import type { SettingsService } from './settings';
import type { Throttle } from './rate-limit';

export interface AppContext {
  database: Database;
  config: Config;
  settings: SettingsService;
  outbox: Outbox;
  /** Throttling counters, in the database (shared by every server process). */
  throttle: Throttle;
  /** Demo mode is a deployment switch (DEMO_MODE=1). */
  isDemo(): boolean;
  /** `{ data, loaded_modules? }` for this request: module data on GETs that ask with load_modules=1. */
  envelope<T>(req: FastifyRequest, data: T): Promise<{ data: T; loaded_modules?: Awaited<ReturnType<SettingsService['moduleData']>> }>;
}

/** One area's routes, registered on the API. */
export type RouteModule = (app: FastifyInstance, ctx: AppContext) => Promise<void> | void;
