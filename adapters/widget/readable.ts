// Text on a chatbot's own colours: the widget writes on them, and the console's preview draws
// them, by this one rule, so the preview shows what visitors get.

/** Black or white text, whichever contrasts more (WCAG's relative luminance) with a `#RGB`/`#RRGGBB` background. */
export function readableOn(colour: string): string {
  const hex = colour.replace('#', '');
  const full = hex.length <= 4 ? [...hex.slice(0, 3)].map((digit) => digit + digit).join('') : hex.slice(0, 6);
  const [red = 0, green = 0, blue = 0] = [0, 2, 4].map((start) => {
    const channel = (parseInt(full.slice(start, start + 2), 16) || 0) / 255;
    return channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
  });
  const luminance = 0.2126 * red + 0.7152 * green + 0.0722 * blue;
  // Contrast with black is (L + 0.05) / 0.05, with white 1.05 / (L + 0.05): equal at L ≈ 0.179.
  return luminance > 0.179 ? '#000000' : '#ffffff';
}
