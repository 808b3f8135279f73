import type { mongo } from 'mongoose';

// lean() hands binary fields back as BSON Binary; a view over its bytes avoids a copy.
export const toBuffer = (binary: mongo.Binary) => {
  const bytes = binary.value();
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
};
