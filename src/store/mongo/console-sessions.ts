import type { ConsoleSession, ConsoleSessionRepository } from '../port.js';
import type { ConsoleSessionDoc, MongoModels } from './models.js';
import { translateUnique } from './unique.js';

const toSession = ({ _id, ...rest }: ConsoleSessionDoc): ConsoleSession => ({ tokenHash: _id, ...rest });

export function mongoConsoleSessions(models: MongoModels): ConsoleSessionRepository {
  const { consoleSessions, consoleLinks } = models;

  return {
    async create({ tokenHash, ...rest }) {
      await translateUnique('consoleSessions', () => consoleSessions.create({ _id: tokenHash, ...rest }));
    },
    async find(tokenHash, now) {
      const doc = await consoleSessions.findOne({ _id: tokenHash, expiresAt: { $gt: now } }).lean<ConsoleSessionDoc>();
      return doc ? toSession(doc) : undefined;
    },
    async touch(tokenHash, lastUsedAt, expiresAt) {
      await consoleSessions.updateOne({ _id: tokenHash }, { $max: { lastUsedAt, expiresAt } });
    },
    async end(tokenHash) {
      await consoleSessions.deleteOne({ _id: tokenHash });
    },
    async endSignedInWith(apiKeyHash) {
      await consoleSessions.deleteMany({ apiKeyHash });
    },
    async addLink({ tokenHash, ...rest }) {
      await translateUnique('consoleLinks', () => consoleLinks.create({ _id: tokenHash, ...rest }));
    },
    async takeLink(tokenHash, now) {
      const doc = await consoleLinks.findOneAndDelete({ _id: tokenHash, expiresAt: { $gt: now } }).lean();
      return doc?.accountId;
    },
  };
}
