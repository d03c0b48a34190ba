/**
 * The request lens's faults (REQUEST_FAULTS in selftest/faults/catalogue/faults.ts): bugs in the parts of a request other
 * than its values (the method, the path, the media type, the body's top-level type), applied from outside
 * the service through the hooks and routes any fastify plugin may add.
 */
import type { FastifyInstance, RouteOptions } from 'fastify';
import { RUNTIME_ROUTE } from '../../../reference/service/runtimes/seams';
import { all, type NamedFault, type Seam } from './seams';
import { TEST_FILES } from '../../../support/run/test-files';

const CHECK_ROUTE = '/v1/checks/:id';
const serverError = () => Object.assign(new Error('request fault'), { statusCode: 500 });

/**
 * A route added beside the service's GET route of this URL, in the same scope and at the same moment: so
 * that the service's limiter and error handler, registered after this plugin, are those it has too.
 */
const beside =
  (url: string, route: Omit<RouteOptions, 'url'>): Seam =>
  (app) => {
    app.addHook('onRoute', function (this: FastifyInstance, added) {
      if (added.url === url && added.method === 'GET') this.route({ ...route, url });
    });
  };

/** ind8-err-405-empty-body: the other methods of a documented path, answered 405 with an Allow header and nothing else. */
const methodNotAllowed = (url: string, allow: string): Seam =>
  beside(url, {
    method: (['DELETE', 'PATCH', 'POST', 'PUT'] as const).filter((m) => !allow.includes(m)),
    handler: async (_req, reply) => reply.code(405).header('allow', allow).send(),
  });

export const REQUEST_FAULTS: NamedFault[] = [
  // The proxy in front answers unrouted paths with its own page.
  {
    name: 'req-unknown-route-html',
    // The error rules hold for a path no route handles too.
    what: 'a path no route handles answers 404 with an HTML page',
    files: [TEST_FILES.requests],
    clauses: ['ERR-3'],
    apply: (app) => {
      app.addHook('onSend', async (req, reply, payload) => {
        if (!req.is404) return payload;
        reply.type('text/html; charset=utf-8');
        return '<!doctype html><html><body><h1>404 Not Found</h1></body></html>';
      });
    },
  },
  // The not-found page for people: a path no route handles, asked without JSON in Accept (a browser, curl's */*), gets HTML.
  {
    name: 'req-unknown-route-html-for-browsers',
    // Found by asking paths no route handles with the Accept values clients send.
    what: 'a path no route handles, asked without JSON in Accept, answers 404 with an HTML page',
    files: [TEST_FILES.requests],
    clauses: ['ERR-3'],
    apply: (app) => {
      app.addHook('onSend', async (req, reply, payload) => {
        if (!req.is404 || /json/i.test(String(req.headers.accept ?? ''))) return payload;
        reply.type('text/html; charset=utf-8');
        return '<!doctype html><html><body><h1>404 Not Found</h1></body></html>';
      });
    },
  },
  // A DELETE route left in from an admin tool, behind the same authentication.
  {
    name: 'req-delete-runtime-200',
    // An undeclared operation answered 2xx: a status the spec does not declare, for a request that must be refused.
    what: 'DELETE /v1/runtimes/:id answers 200 (behind authentication)',
    files: [TEST_FILES.requests],
    clauses: ['SPEC-9'],
    apply: beside(RUNTIME_ROUTE, { method: 'DELETE', handler: async () => ({ deleted: true }) }),
  },
  // A path rewrite that strips the last segment when the path ends in "/", then dereferences the missing id.
  {
    name: 'req-trailing-slash-500',
    // Another spelling of the runtime's path: the same runtime or a refusal, never a 5xx.
    what: '/v1/runtimes/<id>/ (a trailing slash) answers 500',
    files: [TEST_FILES.requests],
    clauses: ['RT-9'],
    apply: (app) => {
      app.addHook('onRequest', async (req) => {
        if (/^\/v1\/runtimes\/[^/?]+\/(\?|$)/.test(req.url)) throw serverError();
      });
    },
  },
  // A bulk-update shim reads an array body as a list of updates and applies the first.
  {
    name: 'req-array-body-applied',
    // A refused body changes nothing; taken though the spec declares an object body, it is no refusal at all.
    what: 'an update body that is a JSON array is taken, its first item applied',
    clauses: ['CU-7'],
    apply: (app) => {
      app.addHook('preValidation', async (req) => {
        if (req.routeOptions.url === CHECK_ROUTE && Array.isArray(req.body)) req.body = req.body[0] ?? {};
      });
    },
  },
  // The media type compared whole, and an unknown one crashes the body reader.
  {
    name: 'req-json-charset-500',
    // The same media type with a parameter is a valid update.
    what: 'an update sent as application/json; charset=utf-8 answers 500',
    clauses: ['CU-1'],
    apply: (app) => {
      app.addHook('onRequest', async (req) => {
        if (req.method === 'PUT' && /;\s*charset=/i.test(req.headers['content-type'] ?? '')) throw serverError();
      });
    },
  },
  // The HTTP server's own refusal of a request too large (Node's, a proxy's): a status line and nothing else.
  {
    name: 'req-too-large-bare-refusal',
    // Found by a mutant of the reference: a request over every size limit is refused by the server itself, an error answer all the same.
    what: 'a request line or headers over the size limit answered with a bare status line: no JSON body',
    files: [TEST_FILES.requests],
    clauses: ['ERR-3'],
    apply: (_app, seams) => {
      seams.errors.parserRefusal = (err, socket) => {
        const status = err.code === 'HPE_HEADER_OVERFLOW' ? '431 Request Header Fields Too Large' : '400 Bad Request';
        socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\n\r\n`);
      };
    },
  },
  // The router's "method not allowed" answer, which has no body of the API's shape.
  {
    name: 'ind8-err-405-empty-body',
    // Found by the request lens, which tries the methods no route declares on the check's path too.
    what: 'another method on a known path (DELETE, POST, PATCH) answers 405 with an Allow header and an empty body, no content type',
    list: 'independent-8',
    files: [TEST_FILES.errors, TEST_FILES.requests],
    clauses: ['ERR-3'],
    apply: all(methodNotAllowed(RUNTIME_ROUTE, 'GET, HEAD'), methodNotAllowed(CHECK_ROUTE, 'GET, HEAD, PUT')),
  },
];
