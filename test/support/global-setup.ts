import type { TestProject } from 'vitest/node';

// Finds a MongoDB for the store and HTTP suites: MONGODB_URI when set, else a throwaway mongod
// from mongodb-memory-server. Where neither can be had (an offline machine cannot download
// mongod), the MongoDB runs are skipped and the reason is printed once, here.

declare module 'vitest' {
  export interface ProvidedContext {
    mongoUri: string | undefined;
  }
}

export default async function setup(project: TestProject) {
  const given = process.env.MONGODB_URI?.trim();
  if (given) {
    project.provide('mongoUri', given);
    return undefined;
  }
  try {
    const { MongoMemoryServer } = await import('mongodb-memory-server-core');
    const server = await MongoMemoryServer.create();
    project.provide('mongoUri', server.getUri());
    return async () => {
      await server.stop();
    };
  } catch (error) {
    const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
    console.warn(`\n[switchboard] MongoDB store tests skipped: no mongod could be obtained (${reason}).`);
    console.warn('[switchboard] Set MONGODB_URI to a running mongod to run them.\n');
    project.provide('mongoUri', undefined);
    return undefined;
  }
}
