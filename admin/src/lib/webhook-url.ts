/**
 * Inline checks of a webhook URL before it is sent. They catch typos early; the API has the last
 * word (it also refuses hosts that resolve to private addresses), and its 422 message is shown
 * next to the field in the same place.
 */

export const MAX_URL_LENGTH = 2048;

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1']);

export function validateWebhookUrl(input: string): string | undefined {
  const value = input.trim();
  if (!value) return 'Enter the URL that should receive the events.';
  if (value.length > MAX_URL_LENGTH) return `The URL must be at most ${MAX_URL_LENGTH} characters.`;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'Enter a complete URL, such as https://example.com/webhooks.';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'The URL must start with https://.';
  if (!url.hostname) return 'The URL needs a host name.';
  // Plain http is only ever accepted for a receiver on this machine, and only by a local stack.
  if (url.protocol === 'http:' && !LOOPBACK_HOSTS.has(url.hostname))
    return 'Use https:// — plain http is only accepted for a local test receiver.';
  if (!LOOPBACK_HOSTS.has(url.hostname) && !url.hostname.includes('.'))
    return 'Use a fully qualified host name, such as hooks.example.com.';
  if (url.username || url.password) return 'Leave credentials out of the URL; verify deliveries with the signing secret instead.';
  return undefined;
}
