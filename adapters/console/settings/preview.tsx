import { readableOn } from '../../widget/readable.js';
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
