// Vectors are stored as little-endian float32 bytes in both adapters, so both give back exactly
// the numbers they were given.

export function vectorToBytes(vector: Float32Array): Buffer {
  return Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength);
}

export function bytesToVector(bytes: Uint8Array): Float32Array {
  // A copy: the bytes may sit at an offset a Float32Array cannot start at.
  return new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
}
