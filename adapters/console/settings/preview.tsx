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
        {iconUrl ? <img src={iconUrl} alt="" /> : <span style={{ color: readableOn(styles.buttonColor) }}>💬</span>}
      </div>
      <figcaption class="muted">
        Preview: the button sits on the {styles.alignChatButton}
        {Number(styles.autoOpenChatWindowAfter) > 0 ? `, and the window opens by itself after ${styles.autoOpenChatWindowAfter} s` : ''}.
      </figcaption>
    </figure>
  );
}

/** Black or white text, whichever reads better on a `#RGB`/`#RRGGBB` background. */
function readableOn(colour: string): string {
  const hex = colour.replace('#', '');
  const full = hex.length <= 4 ? [...hex.slice(0, 3)].map((digit) => digit + digit).join('') : hex.slice(0, 6);
  const [red = 0, green = 0, blue = 0] = [0, 2, 4].map((start) => parseInt(full.slice(start, start + 2), 16) || 0);
  return red * 0.299 + green * 0.587 + blue * 0.114 > 150 ? '#000000' : '#ffffff';
}
