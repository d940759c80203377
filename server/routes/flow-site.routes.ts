/**
 * The flow site (docs/flows, written by `npm run flows`) at /flows, read-only: its HTML pages, the
 * Markdown documents and machines.json, with their content types. Only files directly in the
 * folder are served; when the site was not generated, /flows says so with a 404.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
};

export function flowSiteRoutes(app: FastifyInstance, dir: string | null): void {
  const missing = (reply: FastifyReply, what: string) =>
    reply.status(404).type('text/plain; charset=utf-8').header('Cache-Control', 'no-cache').send(what);
  const serve = (name: string, reply: FastifyReply) => {
    if (!dir || !existsSync(path.join(dir, 'index.html'))) return missing(reply, 'The flow site has not been generated: run `npm run flows`.');
    const type = TYPES[path.extname(name)];
    const file = path.join(dir, name);
    if (!type || !/^[\w.-]+$/.test(name) || name.startsWith('.') || !existsSync(file) || !statSync(file).isFile()) return missing(reply, `No such page in the flow site: ${name}`);
    return reply.type(type).header('Cache-Control', 'no-cache').header('X-Content-Type-Options', 'nosniff').send(readFileSync(file));
  };
  app.get('/flows', { schema: { hide: true } }, async (_req, reply) => reply.redirect('/flows/'));
  app.get('/flows/', { schema: { hide: true } }, async (_req, reply) => serve('index.html', reply));
  app.get<{ Params: { name: string } }>('/flows/:name', { schema: { hide: true } }, async (req, reply) => serve(req.params.name, reply));
}
