import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';

// A per-day line chart (uPlot), redrawn when its data or the page's width changes. Screen
// readers get the same numbers from the table beside it; the canvas itself is hidden from them.

const AXIS_GREY = '#6b7785';
const DAY_S = 86_400;
/** Tick steps of whole days: a per-day chart has nothing to mark at noon. */
const DAY_STEPS = [1, 2, 7, 14, 30, 61, 91, 183, 365].map((days) => days * DAY_S);
/**
 * Each day sits at its midnight UTC and is read back in UTC: read in the reader's zone, a point
 * would show another day's date wherever that midnight falls on another day.
 */
const inUtc = (seconds: number) => uPlot.tzDate(new Date(seconds * 1000), 'Etc/UTC');

export type Series = { label: string; colour: string; values: number[] };

export function DayChart({ title, days, series }: { title: string; days: string[]; series: Series[] }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    // One grey that reads on both themes' backgrounds: the canvas does not follow a theme change.
    const axis = { stroke: AXIS_GREY, grid: { stroke: 'rgba(128, 128, 128, 0.25)' }, ticks: { stroke: 'rgba(128, 128, 128, 0.4)' } };
    const options: uPlot.Options = {
      width: Math.max(280, element.clientWidth),
      height: 220,
      axes: [{ ...axis, incrs: DAY_STEPS }, axis],
      scales: { x: { time: true } },
      tzDate: inUtc,
      series: [{}, ...series.map(({ label, colour }) => ({ label, stroke: colour, width: 2, points: { show: days.length < 40 } }))],
    };
    const times = days.map((day) => Date.parse(`${day}T00:00:00Z`) / 1000);
    const plot = new uPlot(options, [times, ...series.map(({ values }) => values)], element);
    const resize = new ResizeObserver(() => plot.setSize({ width: Math.max(280, element.clientWidth), height: 220 }));
    resize.observe(element);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [days, series]);

  return (
    <figure class="card">
      <figcaption>
        <h3>{title}</h3>
      </figcaption>
      <div class="chart" ref={box} aria-hidden="true" />
      <details>
        <summary>The numbers</summary>
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Day</th>
                {series.map(({ label }) => (
                  <th key={label} scope="col">
                    {label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {days.map((day, index) => (
                <tr key={day}>
                  <th scope="row">{day}</th>
                  {series.map(({ label, values }) => (
                    <td key={label}>{values[index]}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
