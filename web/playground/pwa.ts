// Offline and installable: registers the service worker that vite-plugin-pwa builds (Workbox,
// precaching the whole static build). A new version that was deployed waits (registerType
// 'prompt') until the "A new version is available — reload" bar is clicked, so a game in
// progress is never reloaded under the player. Under `vite` (npm start) there is no service
// worker: the plugin's dev module registers nothing.
import { registerSW } from 'virtual:pwa-register';

export function registerOffline(): void {
  const bar = document.getElementById('update-bar')!;
  const reload = document.getElementById('update-reload') as HTMLButtonElement;
  const later = document.getElementById('update-later') as HTMLButtonElement;
  const update = registerSW({
    onNeedRefresh() {
      bar.hidden = false;
    },
    onOfflineReady() {
      document.documentElement.dataset.offline = 'ready';
    },
    onRegisterError(e: unknown) {
      console.warn('rulestack playground: the service worker did not register (no offline use)', e);
    },
  });
  reload.addEventListener('click', () => {
    reload.disabled = true;
    // the waiting worker takes over, then the page reloads (the plugin's 'controlling' handler)
    void update(true);
  });
  later.addEventListener('click', () => {
    bar.hidden = true;
  });
}
