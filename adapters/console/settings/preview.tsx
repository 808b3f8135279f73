import { lines, type Draft } from './draft.js';

// The widget as visitors will see it, drawn from the unsaved draft: its window and its button.
// A picture only (aria-hidden parts aside, it is described once), so it takes no focus.

export function WidgetPreview({ draft, iconUrl, profilePictureUrl }: { draft: Draft; iconUrl: string | null; profilePictureUrl: string | null }) {
  const { styles } = draft;
  const name = styles.displayName || draft.name;
  const suggested = lines(draft.suggestedMessages);
  return (
    <figure class={`preview ${styles.alignChatButton}`} aria-label="Widget preview">
      <div class={`preview-window ${styles.theme}`} data-testid="preview-window">
        <div class="preview-head">
          {profilePictureUrl && <img src={profilePictureUrl} alt="" />}
          <span>{name}</span>
        </div>
        <div class="preview-body">
          {lines(draft.initialMessages).map((message, index) => (
            <div key={index} class="bubble assistant">
              {message}
            </div>
          ))}
          <div class="bubble user" style={{ background: styles.userMessageColor, color: readableOn(styles.userMessageColor) }}>
            Hello!
          </div>
        </div>
        {suggested.length > 0 && (
          <div class="preview-suggestions">
            {suggested.map((message, index) => (
              <span key={index}>{message}</span>
            ))}
          </div>
        )}
      </div>
      <div class="preview-button" data-testid="preview-button" style={{ background: styles.buttonColor }}>
        {iconUrl ? <img src={iconUrl} alt="" /> : <ChatIcon colour={readableOn(styles.buttonColor)} />}
      </div>
      <figcaption class="muted">
        Preview: the button sits on the {styles.alignChatButton}
        {Number(styles.autoOpenChatWindowAfter) > 0 ? `, and the window opens by itself after ${styles.autoOpenChatWindowAfter} s` : ''}.
      </figcaption>
    </figure>
  );
}

function ChatIcon({ colour }: { colour: string }) {
  return (
    <svg viewBox="0 0 24 24" aria-hidden="true">
      <path fill={colour} d="M4 4h16a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H9l-5 4v-4a2 2 0 0 1-2-2V6a2 2 0 0 1 2-2z" />
    </svg>
  );
}

/** Black or white text, whichever contrasts more (WCAG's relative luminance) with a `#RGB`/`#RRGGBB` background. */
function readableOn(colour: string): string {
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
