// What tells a table of contents (or a list of tables or figures) in a file's text: its title.

/** Lines of entries, one after the other, that make contents or an index at least: prose's lines hardly ever end in a page three times running. */
export const MIN_ENTRIES = 3;

/** The title contents run under, in the languages the engine reads: "Contents", "Table of Contents", "List of Figures", "Inhaltsverzeichnis". */
export const CONTENTS_TITLE =
  /^(?:#{1,6}\s+)?(?:(?:table of )?contents|list of (?:tables|figures|illustrations)|inhalt(?:sverzeichnis)?|table des matières|sommaire|índice|indice|inhoud(?:sopgave)?|innehåll(?:sförteckning)?|indholdsfortegnelse|innhold(?:sfortegnelse)?|sumário)\s*:?$/i;
