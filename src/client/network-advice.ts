/**
 * One line of advice for a connection that failed before any HTTP answer: what the error code means for a
 * run against staging, and the option that fixes it. Undefined for codes with nothing to add.
 */
const UNTRUSTED = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_GET_ISSUER_CERT',
  'CERT_UNTRUSTED',
]);
const NOT_TLS = new Set(['ERR_SSL_WRONG_VERSION_NUMBER', 'ERR_SSL_PACKET_LENGTH_TOO_LONG', 'ERR_SSL_HTTP_REQUEST', 'EPROTO']);

export function networkAdvice(code: string | undefined, message = ''): string | undefined {
  if (code === undefined) return undefined;
  if (UNTRUSTED.has(code)) {
    return `the target's TLS certificate is not signed by a CA this run trusts (${code}): pass --ca-cert <your CA's PEM file> (or set NODE_EXTRA_CA_CERTS); --insecure skips the check, and every report then says so`;
  }
  if (code === 'CERT_HAS_EXPIRED') return `the target's TLS certificate has expired (${code})`;
  if (code === 'CERT_NOT_YET_VALID') return `the target's TLS certificate is not valid yet (${code}): check the clocks`;
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') return `the target's TLS certificate does not name the host of --target (${code})`;
  if (NOT_TLS.has(code) || /wrong version number|packet length too long|http request/i.test(message)) {
    return `the target did not answer TLS (${code}): is it http:// rather than https://, or the wrong port?`;
  }
  if (code === 'ECONNREFUSED')
    return 'connection refused: nothing listens at that host and port (check --target, and --proxy / HTTPS_PROXY if a proxy is used)';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'host not found: check the host name of --target (behind a proxy: --proxy, HTTPS_PROXY, NO_PROXY)';
  if (code === 'UND_ERR_ABORTED' && /Proxy response \((\d+)\)/.test(message)) {
    const status = /Proxy response \((\d+)\)/.exec(message)?.[1];
    return status === '407'
      ? 'the proxy asks for credentials (407): put them in the proxy URL (http://user:password@proxy:port)'
      : `the proxy refused to open a tunnel to the target (${status})`;
  }
  return undefined;
}
