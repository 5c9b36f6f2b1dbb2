// Bar charts for the Simulate panel, with Chart.js (only the parts a bar chart needs, so the
// bundle stays small). This module is loaded the first time a simulation has results.
import { BarController, BarElement, CategoryScale, Chart, LinearScale, Tooltip } from 'chart.js';

Chart.register(BarController, BarElement, CategoryScale, LinearScale, Tooltip);

/** The page's colours (style.css variables), so the charts follow the light or dark theme. */
function colour(name: string, fallback: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim() || fallback;
}

/** Draws (or redraws) a bar chart in the canvas: one bar per label. */
export function barChart(canvas: HTMLCanvasElement, labels: string[], counts: number[], title: string): void {
  const ink = colour('--ink', '#1d2330');
  const line = colour('--line', '#dde1e8');
  Chart.getChart(canvas)?.destroy();
  new Chart(canvas, {
    type: 'bar',
    data: { labels, datasets: [{ label: title, data: counts, backgroundColor: colour('--accent', '#2f5bd3'), borderRadius: 3 }] },
    options: {
      animation: false,
      responsive: true,
      maintainAspectRatio: false,
      scales: {
        x: { ticks: { color: ink }, grid: { color: line } },
        y: { beginAtZero: true, ticks: { color: ink, precision: 0 }, grid: { color: line } },
      },
      plugins: { tooltip: { enabled: true } },
    },
  });
}
