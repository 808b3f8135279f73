import { CopyButton } from '../components/copy-button.js';
import type { Chatbot } from '../types.js';

// The website widget: the line to paste into a site, and the full-page chat link.

export function Embed({ chatbot }: { chatbot: Chatbot }) {
  const origin = location.origin;
  const snippet = `<script src="${origin}/widget/embed.js" data-chatbot-id="${chatbot.id}" defer></script>`;
  const link = `${origin}/widget/chatbots/${encodeURIComponent(chatbot.id)}`;
  return (
    <section class="card" aria-labelledby="embed-title">
      <h2 id="embed-title">Website widget</h2>
      {chatbot.settings.visibility === 'private' && (
        <p class="muted">The chatbot is private: make it public in Settings for the widget and the link to work.</p>
      )}
      <p>Paste this line into your site, before &lt;/body&gt;:</p>
      <pre aria-label="Embed snippet">{snippet}</pre>
      <CopyButton text={snippet} label="Copy snippet" />
      <p>
        Full-page chat: <a href={link}>{link}</a>
      </p>
      <CopyButton text={link} label="Copy link" />
    </section>
  );
}
