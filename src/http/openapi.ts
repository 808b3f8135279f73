import { createDocument, type ZodOpenApiPathsObject } from 'zod-openapi';

// The OpenAPI 3.1 document of the hub, assembled from the paths each route module describes
// with the same zod schemas that validate its requests.

export type OpenApiDocument = ReturnType<typeof createDocument>;

/** Route modules' paths, mounted under `prefix` as the app mounts their routers. */
export type MountedPaths = { prefix: string; paths: ZodOpenApiPathsObject[] };

export function describeApi(mounts: MountedPaths[]): OpenApiDocument {
  const paths = Object.fromEntries(
    mounts.flatMap(({ prefix, paths: groups }) =>
      groups.flatMap((group) => Object.entries(group)).map(([path, item]) => [prefix + path, item]),
    ),
  );
  return createDocument({
    openapi: '3.1.0',
    info: {
      title: 'Switchboard',
      version: '1.0.0',
      description:
        'The Chatbot Management API v1 as a self-hosted Switchboard hub serves it, with its extensions ' +
        '(the Integrations, Webhooks, Widget and Operations tags, and operations marked so). Every ' +
        '`/api/v1` call but this document and the console’s sign-in takes `Authorization: Bearer <API key>` ' +
        'or a console session’s cookie. ' +
        'Every failure is answered `{message}` with one of the contract’s fixed texts.',
    },
    security: [{ apiKey: [] }, { consoleSession: [] }],
    components: {
      securitySchemes: {
        apiKey: { type: 'http', scheme: 'bearer', description: 'An API key of the account (opaque, `sb_…`)' },
        consoleSession: {
          type: 'apiKey',
          in: 'cookie',
          name: 'sb_session',
          description:
            'A console session (`POST /api/v1/console/sessions`); state-changing calls also need ' +
            '`X-Switchboard-Console: 1` and the hub’s own `Origin`',
        },
        metricsToken: { type: 'http', scheme: 'bearer', description: '`METRICS_TOKEN`, when it is set' },
      },
    },
    paths,
  });
}
