/** The error codes of RFC 6749 (§4.1.2.1, §5.2) and RFC 7591 (§3.2.2) we answer with, and OpenID's login_required. */
export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'unsupported_response_type'
  | 'invalid_scope'
  | 'access_denied'
  | 'login_required'
  | 'invalid_redirect_uri'
  | 'invalid_client_metadata'
  | 'server_error';

/**
 * An OAuth 2.0 protocol error (RFC 6749 §5.2, §4.1.2.1; RFC 7591 §3.2.2). It leaves as
 * `{error: <rfc code>, error_description, description}`: the RFC fields for OAuth clients and our
 * envelope's `description` for everyone else.
 */
export class OAuthError extends Error {
  constructor(
    readonly code: OAuthErrorCode,
    readonly description: string,
    readonly status = code === 'invalid_client' || code === 'login_required' ? 401 : 400,
  ) {
    super(description);
    this.name = 'OAuthError';
  }

  toBody() {
    return { error: this.code, error_description: this.description, description: this.description };
  }
}
