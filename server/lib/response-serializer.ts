/**
 * Answers written by a serialiser compiled once per route from the route's response schema
 * (fast-json-stringify), instead of checking every answer against its zod schema and then writing it with
 * JSON.stringify: the same JSON (the schema's fields only, as zod would keep them) at a fraction of the cost.
 *
 * Outside production (tests, development) every answer is still checked against its zod schema as before,
 * and the compiled serialiser's JSON must read back as exactly what zod answered — a route whose answers the
 * two would write differently fails there. A schema that JSON Schema cannot describe (transforms, dates…)
 * keeps the zod serialiser.
 *
 * A route may also answer JSON text it wrote itself (sendJsonText): sent as it is, and checked the same way.
 */
import fastJson from 'fast-json-stringify';
import type { FastifyReply } from 'fastify';
import { isDeepStrictEqual } from 'node:util';
import { $ZodType, parse, toJSONSchema } from 'zod/v4/core';
import { serializerCompiler } from 'fastify-type-provider-zod';

type SerializerCompiler = typeof serializerCompiler;
type Route = Parameters<SerializerCompiler>[0];

const zodOf = (schema: unknown): $ZodType | null => {
  if (schema instanceof $ZodType) return schema;
  const inner = (schema as { properties?: unknown } | null)?.properties;
  return inner instanceof $ZodType ? inner : null;
};

/** The route's compiled serialiser, or null when its schema has no exact JSON Schema. */
function compile(schema: unknown): ((data: unknown) => string) | null {
  const zod = zodOf(schema);
  if (!zod) return null;
  try {
    const json = toJSONSchema(zod, { io: 'output', target: 'draft-7' }) as Record<string, unknown>;
    delete json.$schema;
    return fastJson(json as never) as (data: unknown) => string;
  } catch {
    return null;
  }
}

/**
 * `s` as a JSON string, exactly as JSON.stringify writes it: quoted as it is when nothing in it needs escaping
 * (most names and paths), which is several times quicker for the short strings of a row.
 */
export function jsonString(s: string): string {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c === 0x22 || c === 0x5c || (c >= 0xd800 && c <= 0xdfff)) return JSON.stringify(s);
  }
  return `"${s}"`;
}

export class SerializerMismatchError extends Error {}

/** `checked`: also check every answer with zod and compare (tests and development). */
export function compiledSerializerCompiler(checked: boolean): SerializerCompiler {
  return (route: Route) => {
    const viaZod = serializerCompiler(route);
    const fast = compile(route.schema);
    if (!fast) return viaZod;
    if (!checked) return fast;
    return (data: unknown) => {
      const expected = viaZod(data);
      if (!isDeepStrictEqual(JSON.parse(fast(data)), JSON.parse(expected))) {
        throw new SerializerMismatchError(`the compiled serialiser of ${route.method} ${route.url} writes another answer than its schema`);
      }
      return expected;
    };
  };
}

/**
 * An answer whose JSON text is already written (say, a tree put together from the JSON the database wrote for
 * each of its nodes): sent as it is, without the route's serialiser. `checked` (tests and development, as for
 * the compiled serialisers): the text must be exactly what the schema's serialiser would write for it.
 */
export function sendJsonText(reply: FastifyReply, schema: $ZodType, text: string, checked = process.env.NODE_ENV !== 'production'): string {
  if (checked && JSON.stringify(parse(schema, JSON.parse(text))) !== text) {
    throw new SerializerMismatchError(`the JSON text ${reply.request.method} ${reply.request.url} answers is not what its schema writes`);
  }
  reply.type('application/json; charset=utf-8');
  return text;
}
