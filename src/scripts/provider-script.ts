import { PROVIDER_SCRIPT_URL } from '../lib/embeds.ts';

let loading: Promise<void> | undefined;

/**
 * Loads the provider's embed script once per page. A failure is only logged (spec: no user message);
 * the frames still show without it, just without automatic sizing.
 */
export function loadProviderScript(): Promise<void> {
  loading ??= new Promise<void>((resolve) => {
    const script = document.createElement('script');
    script.src = PROVIDER_SCRIPT_URL;
    script.async = true;
    script.onload = () => resolve();
    script.onerror = () => {
      console.error(`Failed to load the booking provider script from ${PROVIDER_SCRIPT_URL}`);
      resolve();
    };
    document.head.append(script);
  });
  return loading;
}
