/**
 * Runs one operator command against open services: finds the area and action, parses the arguments, and
 * answers the exit code (0 done, 1 refused by the rules, 2 wrong usage) after writing what happened.
 */
import { parseArgs } from 'node:util';
import { HttpError } from '../lib/errors';
import { OPERATOR_AREAS } from './areas';
import { OperatorUsageError, type OperatorIo, type OperatorServices } from './registry';

export function operatorUsage(): string {
  const lines = ['usage: npm run operator -- <area> <command> [arguments]', ''];
  for (const a of OPERATOR_AREAS) {
    lines.push(`${a.name}: ${a.summary}`);
    for (const [name, c] of Object.entries(a.commands)) lines.push(`  ${a.name} ${name} ${c.usage}`.trimEnd() + `\n      ${c.summary}`);
  }
  return lines.join('\n');
}

export async function runOperator(services: OperatorServices, argv: string[], io: OperatorIo & { err(line: string): void }): Promise<number> {
  const [areaName, action, ...rest] = argv;
  const area = OPERATOR_AREAS.find((a) => a.name === areaName);
  const command = area && action ? area.commands[action] : undefined;
  if (!area || !command) {
    io.err(operatorUsage());
    return 2;
  }
  try {
    const { positionals, values } = parseArgs({ args: rest, options: command.options ?? {}, allowPositionals: true, strict: true });
    await command.run(services, { positionals, values: values as Record<string, string | boolean | undefined> }, io);
    return 0;
  } catch (e) {
    if (e instanceof OperatorUsageError || (e as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      io.err(`${(e as Error).message}\nusage: npm run operator -- ${area.name} ${action} ${command.usage}`);
      return 2;
    }
    if (e instanceof HttpError) {
      const fields = Object.entries(e.errors).map(([f, keys]) => `${f}: ${keys.join(', ')}`);
      io.err([e.message, ...fields].join('\n'));
      return 1;
    }
    throw e;
  }
}
