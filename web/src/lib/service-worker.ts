// An earlier version of the console registered a service worker; a stale one would keep serving
// old files, so every start removes whatever is registered (SPEC §9).
export async function unregisterServiceWorkers(): Promise<void> {
  if (!('serviceWorker' in navigator)) return;
  try {
    const registrations = await navigator.serviceWorker.getRegistrations();
    await Promise.all(registrations.map((registration) => registration.unregister()));
  } catch (error) {
    console.error('Unregistering service workers failed', error);
  }
}
