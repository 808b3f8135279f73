import { send } from '../api.js';
import { useAction } from '../components/action.js';
import { ConfirmButton } from '../components/confirm-button.js';
import { Alert } from '../components/feedback.js';

// Erasing one person's conversation or lead for good (a GDPR erasure request): asked first, then
// deleted through the API, whose refusal shows beside the button.

type Props = { path: string; verb: string; name: string; onErased: () => void };

export function EraseButton({ path, verb, name, onErased }: Props) {
  const action = useAction();
  const erase = async () => {
    if (await action.run(() => send('DELETE', path))) onErased();
  };
  return (
    <>
      <ConfirmButton verb={verb} name={name} busy={action.busy} onConfirm={erase} />
      {action.failure && <Alert>{action.failure}</Alert>}
    </>
  );
}
