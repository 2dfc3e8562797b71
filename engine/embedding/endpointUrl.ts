import { EngramError } from '../errors';

/**
 * Joins a configured base URL and an API path, e.g. ('https://api.openai.com/v1/', '/embeddings').
 * Validated here so that a typo in a setting fails at construction with the value named, not at
 * the first request with a fetch error.
 */
export function endpointUrl(baseUrl: string, apiPath: string): string {
  let parsed: URL;
  try {
    parsed = new URL(baseUrl);
  } catch {
    throw new EngramError('INVALID_INPUT', `baseUrl must be an http(s) URL, got '${baseUrl}'`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new EngramError('INVALID_INPUT', `baseUrl must be an http(s) URL, got '${baseUrl}'`);
  }
  if (parsed.search !== '' || parsed.hash !== '') {
    throw new EngramError('INVALID_INPUT', `baseUrl must not have a query or fragment, got '${baseUrl}'`);
  }
  return `${parsed.origin}${parsed.pathname.replace(/\/+$/, '')}${apiPath}`;
}
