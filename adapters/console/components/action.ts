import { useState } from 'preact/hooks';
import { errorText } from '../format.js';

// One piece of work a button starts: busy while it runs, its failure's message after.

export function useAction() {
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string>();
  const run = async (work: () => Promise<unknown>): Promise<boolean> => {
    setBusy(true);
    setFailure(undefined);
    try {
      await work();
      return true;
    } catch (error) {
      setFailure(errorText(error));
      return false;
    } finally {
      setBusy(false);
    }
  };
  return { busy, failure, run };
}
