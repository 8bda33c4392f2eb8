/**
 * Node's user agent for sign-ins in unit tests: it requests the authorization URL without following
 * the redirect, as a browser would, and hands back where it points (the callback with the code).
 * The SDK's demo authorization server approves at once, as a person would.
 */
export async function followToCallback(request: { url: URL }): Promise<string> {
  const response = await fetch(request.url, { redirect: 'manual' });
  const location = response.headers.get('location');
  if (!location) throw new Error(`the authorization server answered ${response.status} without a redirect`);
  return new URL(location, request.url).href;
}
