import { useId } from 'preact/hooks';
import { readerTimeZone } from '../date-range.js';
import { TextInput } from './fields.js';

// "From" and "To", a range of days, named as the reader's days: every page that takes a range
// counts them in the browser's time zone, and says which.

type Props = { startDate: string; endDate: string; onStartDate: (day: string) => void; onEndDate: (day: string) => void };

export function DayRangeFields({ startDate, endDate, onStartDate, onEndDate }: Props) {
  const id = useId();
  return (
    <div class="day-range" role="group" aria-labelledby={id}>
      <div class="row">
        <TextInput label="From" type="date" value={startDate} onValue={onStartDate} />
        <TextInput label="To" type="date" value={endDate} onValue={onEndDate} />
      </div>
      <p class="hint" id={id}>
        Days in your time zone, {readerTimeZone()}
      </p>
    </div>
  );
}
