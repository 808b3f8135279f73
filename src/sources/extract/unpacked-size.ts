import yauzl from 'yauzl';

// A DOCX is a zip, and the XML inside is what extraction parses: a file of a few hundred
// kilobytes can unpack to gigabytes of it (a zip bomb), and mammoth needs about a hundred times
// the XML's size in memory. What a zip declares is read from its directory, nothing unpacked.

/** XML parts, the document's own and those it points to: images and fonts are not parsed. */
const PARSED_PART = /\.(?:xml|rels)$/i;

/**
 * The bytes a DOCX's XML parts unpack to, as its zip directory declares them; undefined when the
 * directory cannot be read (a damaged file, which extraction reports as such).
 */
export function unpackedXmlBytes(bytes: Uint8Array): Promise<number | undefined> {
  return new Promise((resolve) => {
    yauzl.fromBuffer(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), { lazyEntries: true }, (error, zip) => {
      if (error) return resolve(undefined);
      let total = 0;
      zip.on('entry', (entry: yauzl.Entry) => {
        if (PARSED_PART.test(entry.fileName)) total += entry.uncompressedSize;
        zip.readEntry();
      });
      zip.on('end', () => resolve(total));
      zip.on('error', () => resolve(undefined));
      zip.readEntry();
    });
  });
}
