/**
 * Operator commands: what the company's staff do, as `npm run operator -- <area> <action> [args]`, through
 * the same lib functions the API uses. Each area adds a file of its commands to OPERATOR_AREAS
 * (server/operator/areas.ts). A command gets the open services and its parsed arguments, writes what it did
 * to `out`, and throws to fail (the HTTP errors of server/lib/errors are reported by their message).
 */
import type { AppContext } from '../lib/app-context';

export interface OperatorIo {
  out(line: string): void;
}

export type OperatorServices = Pick<AppContext, 'database' | 'config' | 'outbox' | 'settings'>;

export interface OperatorCommand {
  /** Usage of the command's arguments, e.g. 'ID --reason "..."'. */
  usage: string;
  summary: string;
  /** Options it takes (node:util parseArgs); positionals are passed as they are. */
  options?: Record<string, { type: 'string' | 'boolean'; short?: string }>;
  run(services: OperatorServices, args: { positionals: string[]; values: Record<string, string | boolean | undefined> }, io: OperatorIo): Promise<void>;
}

/** One area's commands by action name (`kyc` → { list, approve, reject }). */
export interface OperatorArea {
  name: string;
  summary: string;
  commands: Record<string, OperatorCommand>;
}

export class OperatorUsageError extends Error {}
