// The request lens's faults (REQUEST_FAULTS in faults.ts): bugs in the parts of a request other than its
// values (the method, the path, the media type, the body's top-level type), bent from outside the
// service through the hooks and routes any fastify plugin may add.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Faults } from '../../faults';

const UPDATE_ROUTE = '/v1/checks/:id';
const serverError = () => Object.assign(new Error('request fault'), { statusCode: 500 });

export default fp(
  async function requestFaults(app: FastifyInstance, opts: { faults: Faults }) {
    const { faults } = opts;
    // req-unknown-route-html: the proxy in front answers unrouted paths with its own page.
    if (faults.has('req-unknown-route-html'))
      app.addHook('onSend', async (req, reply, payload) => {
        if (!req.is404) return payload;
        reply.type('text/html; charset=utf-8');
        return '<!doctype html><html><body><h1>404 Not Found</h1></body></html>';
      });
    // req-delete-runtime-200: a DELETE route left in from an admin tool, behind the same authentication.
    if (faults.has('req-delete-runtime-200')) app.delete('/v1/runtimes/:id', async () => ({ deleted: true }));
    // req-trailing-slash-500: a path rewrite that strips the last segment when the path ends in "/", then dereferences the missing id.
    if (faults.has('req-trailing-slash-500'))
      app.addHook('onRequest', async (req) => {
        if (/^\/v1\/runtimes\/[^/?]+\/(\?|$)/.test(req.url)) throw serverError();
      });
    // req-array-body-applied: a bulk-update shim reads an array body as a list of updates and applies the first.
    if (faults.has('req-array-body-applied'))
      app.addHook('preValidation', async (req) => {
        if (req.routeOptions.url === UPDATE_ROUTE && Array.isArray(req.body)) req.body = req.body[0] ?? {};
      });
    // req-json-charset-500: the media type compared whole, and an unknown one crashes the body reader.
    if (faults.has('req-json-charset-500'))
      app.addHook('onRequest', async (req) => {
        if (req.method === 'PUT' && /;\s*charset=/i.test(req.headers['content-type'] ?? '')) throw serverError();
      });
  },
  { name: 'request-faults' },
);
