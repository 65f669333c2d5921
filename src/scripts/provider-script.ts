import { PROVIDER_SCRIPT_URL } from '../lib/site/embeds.ts';

let loading: Promise<boolean> | undefined;

/**
 * Loads the provider's embed script once per page; resolves whether it came. A failure is logged (no
 * message of its own; the frame's fallback says what to do instead); the frames still show without the script,
 * just without automatic sizing.
 */
export function loadProviderScript(): Promise<boolean> {
  loading ??= new Promise<boolean>((resolve) => {
    const script = document.createElement('script');
    script.src = PROVIDER_SCRIPT_URL;
    script.async = true;
    script.onload = () => resolve(true);
    script.onerror = () => {
      console.error(`Failed to load the booking provider script from ${PROVIDER_SCRIPT_URL}`);
      resolve(false);
    };
    document.head.append(script);
  });
  return loading;
}
