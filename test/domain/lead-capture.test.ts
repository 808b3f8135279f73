import { describe, expect, it } from 'vitest';
import { leadRequest } from '../../src/domain/lead-capture.js';
import { defaultSettings, type ChatbotSettings } from '../../src/settings/chatbot-settings.js';

function collecting(labels: { name: string; email: string }): ChatbotSettings {
  const settings = defaultSettings('Support');
  return {
    ...settings,
    collectCustomerInformation: {
      ...settings.collectCustomerInformation,
      title: 'Stay in touch',
      name: { active: true, label: labels.name },
      email: { active: true, label: labels.email },
    },
  };
}

describe('the request for details in a reply', () => {
  it('names the active fields by their labels', () => {
    expect(leadRequest(collecting({ name: 'Name', email: 'Email' }))).toBe('Stay in touch: please share your Name and Email.');
  });

  it('reads a label that starts with "Your" once: "your name", not "your Your name"', () => {
    // Found in a walk-through: a form labelled "Your name" and "Work email" made every API and
    // Slack reply end "please share your Your name and Work email."
    expect(leadRequest(collecting({ name: 'Your name', email: 'Work email' }))).toBe('Stay in touch: please share your name and Work email.');
    expect(leadRequest(collecting({ name: 'YOUR  NAME', email: 'your e-mail' }))).toBe('Stay in touch: please share your NAME and e-mail.');
  });
});
