// Import rules checked by `npm run cycles` (part of `npm run validate`): no module reaches itself again
// through its imports, type-only imports included (docs/decisions/338), and the server's floors point
// one way only (docs/decisions/396): db and shared at the bottom, then the areas with the order domain
// (src/server/orders/) as their ground floor, then the flows that compose areas, then the routes, jobs
// and watchers that call them.
// The client's floors point one way too (docs/decisions/423): transport/ and state/ at the bottom, the
// features above them, and app/ (router, navigation, staff shell) on top, composing the features.

/** A route module: routes.ts or *-routes.ts inside a folder of the server (src/server/routes.ts composes them). */
const ROUTE_FILE = '^src/server/[^/]+/(routes|[a-z0-9-]+-routes)\\.ts$';
/** Tests and their helpers may import anything. */
const TEST_FILE = '\\.test\\.tsx?$|^src/server/test/';

export default {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'An import cycle: move what both sides need into a module of its own.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'orders-is-the-floor',
      comment:
        'The order domain (src/server/orders/) imports the database, the shared code and the floor modules ' +
        'beside it only: what a change means for mail, documents, payments, the live screens or the audit ' +
        'screens is composed in src/server/flows/.',
      severity: 'error',
      from: { path: '^src/server/orders/', pathNot: TEST_FILE },
      to: {
        path: '^src/server/',
        pathNot: [
          '^src/server/(orders|db)/',
          // Floor modules: the staff identity type, the server's words in a customer language, its clock.
          '^src/server/context\\.ts$',
          '^src/server/translator\\.ts$',
          '^src/server/clock\\.ts$',
          // A known exception, a floor-like module that imports only db, shared and the clock: the
          // due-time rules the lists and the repository compute the due state with.
          '^src/server/due-time/policy\\.ts$',
        ],
      },
    },
    {
      name: 'no-route-to-route',
      comment:
        'A route module imports no other route module: what two routes share is an area query or a flow.',
      severity: 'error',
      from: { path: ROUTE_FILE },
      to: { path: ROUTE_FILE },
    },
    {
      name: 'flows-from-the-top',
      comment:
        'src/server/flows/ is called by routes, jobs and watchers (and by other flows), never by an area: ' +
        'an area that needs a flow is a flow itself.',
      severity: 'error',
      from: {
        path: '^src/server/',
        pathNot: [
          ROUTE_FILE,
          TEST_FILE,
          '^src/server/flows/',
          // The jobs and the watchers: the scheduler, the IMAP watcher.
          '^src/server/jobs\\.ts$',
          '^src/server/inbound/imap\\.ts$',
        ],
      },
      to: { path: '^src/server/flows/' },
    },
    {
      name: 'client-features-do-not-import-app',
      comment:
        'src/client/app/ composes the features (router, navigation, staff shell); a feature, a shared ' +
        'component, the floors and the tests never import it: a feature exports its routes and nav ' +
        'entries for the app to compose, and reads the store from src/client/state/.',
      severity: 'error',
      from: { path: '^src/client/', pathNot: ['^src/client/app/', '^src/client/main\\.tsx$'] },
      to: { path: '^src/client/app/' },
    },
    {
      name: 'client-state-is-a-floor',
      comment:
        'src/client/state/ (the store, its typed hooks, the session state) stands on transport/ only: ' +
        'what a feature adds to the state is the API cache of its *-api.ts.',
      severity: 'error',
      from: { path: '^src/client/state/', pathNot: TEST_FILE },
      to: { path: '^src/client/', pathNot: '^src/client/(state|transport)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '\\.d\\.ts$' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
