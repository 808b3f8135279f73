import { randomUUID } from 'node:crypto';
import { placeRuns } from '../material-runs.js';
import { apiTextSourceId, type MaterialRun, type SourceChunk, type SourceRef, type TrainingRepository } from '../port.js';
import type { MongoModels, TrainingChunkDoc, TrainingSourceDoc } from './models.js';
import type { MongoSourceTexts } from './source-texts.js';

const BATCH = 1000;
const DUPLICATE_KEY = 11000;

// Without transactions, material is versioned: chunks are written under a fresh version, then one
// write to the source document makes that version current, and only then is the superseded version
// deleted. Readers follow the version the source document names. The write that makes a version
// current sets its runs (material-runs.ts) with it.
export function mongoTraining(models: MongoModels, sourceTexts: MongoSourceTexts): TrainingRepository & MongoMaterialRuns {
  const { trainingSources, trainingChunks } = models;
  const currentVersion = async (chatbotId: string) =>
    (await trainingSources.findById(chatbotId, { version: 1 }).lean<TrainingSourceDoc>())?.version;

  return {
    async replace(chatbotId, material) {
      const version = randomUUID();
      const docs = material.chunks.map((chunk, seq): TrainingChunkDoc => {
        if (typeof chunk === 'string') return { chatbotId, version, seq, text: chunk };
        return { chatbotId, version, seq, text: chunk.text, ...(chunk.source ? { source: chunk.source } : {}) };
      });
      try {
        for (let start = 0; start < docs.length; start += BATCH) {
          const batch = docs.slice(start, start + BATCH);
          await trainingChunks.insertMany(batch, { ordered: true, lean: true });
        }
      } catch (error) {
        await trainingChunks.deleteMany({ chatbotId, version });
        throw error;
      }
      const { sourceText, revision } = material;
      const runs = material.runs && placeRuns(material.runs);
      const unset = { ...(sourceText === undefined ? { sourceText: '' } : {}), ...(runs === undefined ? { runs: '' } : {}) };
      let previous: TrainingSourceDoc | null;
      try {
        previous = await trainingSources
          .findOneAndUpdate(
            // Material of a later revision stays: the upsert then collides with it on _id.
            revision === undefined ? { _id: chatbotId } : { _id: chatbotId, revision: { $not: { $gte: revision } } },
            {
              $set: { version, ...(sourceText === undefined ? {} : { sourceText }), ...(revision === undefined ? {} : { revision }), ...(runs ? { runs } : {}) },
              ...(Object.keys(unset).length > 0 ? { $unset: unset } : {}),
            },
            { upsert: true, returnDocument: 'before', projection: { version: 1 } },
          )
          .lean<TrainingSourceDoc>();
      } catch (error) {
        if ((error as { code?: number }).code !== DUPLICATE_KEY) throw error;
        await trainingChunks.deleteMany({ chatbotId, version });
        return false;
      }
      // Only the version this write displaced: a concurrent replace may have chunks written but
      // not yet made current, and those must survive.
      if (previous) await trainingChunks.deleteMany({ chatbotId, version: previous.version });
      return true;
    },
    async material(chatbotId) {
      // The superseded version's chunks are deleted only after the switch, so if the version still
      // stands once the chunks are read, none vanished mid-read; otherwise read the new one.
      let version = await currentVersion(chatbotId);
      for (;;) {
        if (version === undefined) return { version: undefined, chunks: [] };
        const docs = await trainingChunks
          .find({ chatbotId, version }, { _id: 0, seq: 1, text: 1, source: 1 })
          .sort({ seq: 1 })
          .lean<TrainingChunkDoc[]>();
        const after = await currentVersion(chatbotId);
        if (after === version) {
          return { version, chunks: docs.map(({ seq, text, source }) => (source ? { seq, text, source } : { seq, text })) };
        }
        version = after;
      }
    },
    version: currentVersion,
    async runs(chatbotId) {
      const doc = await trainingSources.findById(chatbotId, { version: 1, revision: 1, runs: 1 }).lean<TrainingSourceDoc>();
      return { version: doc?.version, revision: doc?.revision, runs: doc?.runs ?? [] };
    },
    async readRun(chatbotId, version, { start, end }) {
      const docs = await trainingChunks
        .find({ chatbotId, version, seq: { $gte: start, $lt: end } }, { _id: 0, text: 1, source: 1 })
        .sort({ seq: 1 })
        .lean<TrainingChunkDoc[]>();
      return docs.map(({ text, source }) => ({ text, source: source as SourceRef }));
    },
    async sourceText(chatbotId) {
      const apiText = await sourceTexts.read(chatbotId, apiTextSourceId(chatbotId), Number.MAX_SAFE_INTEGER);
      if (apiText !== undefined) return apiText;
      const doc = await trainingSources.findById(chatbotId, { sourceText: 1 }).lean<TrainingSourceDoc>();
      return doc ? (doc.sourceText ?? '') : undefined;
    },
  };
}

/** What the sources' trainedSources reads of the material (material-runs.ts). */
export type MongoMaterialRuns = Pick<TrainingRepository, 'runs' | 'version'> & {
  /** The chunks of a run of `version`: the caller checks the version is still current after. */
  readRun(chatbotId: string, version: string, run: MaterialRun): Promise<SourceChunk[]>;
};
