import COpenSSL

/// Why a TLS handshake of a client failed, in a person's words: the one vocabulary of `wss://` connections
/// (`ClientTLS`) and of the HTTPS API client (`HTTPFetcher`), which share that TLS. Made from OpenSSL's
/// certificate verdict (an X509_V_ERR code) or, without one, the reason of its first error (an SSL_R code); no
/// library text reaches the person.
public struct TLSFailure: Sendable, Hashable, CustomStringConvertible {
    /// What failed, as a program tells the cases apart; `description` says it to a person.
    public enum Kind: Sendable, Hashable {
        /// The server's certificate has expired, is not valid yet, is self-signed, comes from an authority this machine
        /// does not trust, or is not made out to the host asked for.
        case certificateExpired, certificateNotYetValid, selfSigned, unknownIssuer, hostMismatch
        /// Some other verdict on the certificate (revoked, bad signature, wrong purpose…).
        case certificateRefused
        /// The server offers only TLS versions this client refuses (TLS 1.0 or 1.1), or none it knows.
        case protocolVersion
        /// The server answered something that is not TLS (plain HTTP on that port, say).
        case notTLS
        /// The server and this client have no cipher in common.
        case noCommonCipher
        /// The server closed the connection in the middle of the handshake.
        case closedDuringHandshake
        /// The trust could not be set up (a CA file that does not load).
        case trustSetup
        /// Any other TLS failure (an unknown handshake error, a TLS connection that broke…).
        case other
    }

    /// What failed.
    public let kind: Kind
    /// What failed, in a person's words, with no library text.
    public let description: String

    /// A failure of `kind`, told to a person as `description`.
    public init(kind: Kind, description: String) {
        self.kind = kind
        self.description = description
    }

    /// Whether trusting another certificate authority (`caFile`, the CLI's `--ca-file`) can be the fix.
    public var caFileMayHelp: Bool {
        [.selfSigned, .unknownIssuer, .trustSetup].contains(kind)
    }

    /// From the certificate verdict OpenSSL gave (`SSL_get_verify_result`, not X509_V_OK).
    static func certificate(verdict: Int, host: String) -> TLSFailure {
        let (kind, words): (Kind, String) = switch Int32(clamping: verdict) {
        case X509_V_ERR_CERT_HAS_EXPIRED: (.certificateExpired, "it has expired")
        case X509_V_ERR_CERT_NOT_YET_VALID:
            (.certificateNotYetValid, "it is not valid yet (is this machine's clock right?)")
        case X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT: (.selfSigned, "it is self-signed")
        case X509_V_ERR_SELF_SIGNED_CERT_IN_CHAIN:
            (.selfSigned, "its chain ends in a self-signed authority this machine does not trust")
        case X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT, X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY,
             X509_V_ERR_UNABLE_TO_VERIFY_LEAF_SIGNATURE:
            (.unknownIssuer, "it was issued by an authority this machine does not trust (unknown issuer)")
        case X509_V_ERR_HOSTNAME_MISMATCH: (.hostMismatch, "it is not made out to \(host) (host name mismatch)")
        case X509_V_ERR_IP_ADDRESS_MISMATCH: (.hostMismatch, "it is not made out to \(host) (address mismatch)")
        case X509_V_ERR_CERT_REVOKED: (.certificateRefused, "it has been revoked")
        case X509_V_ERR_CERT_SIGNATURE_FAILURE: (.certificateRefused, "its signature does not verify")
        case X509_V_ERR_INVALID_PURPOSE: (.certificateRefused, "it is not meant for a server")
        default: (.certificateRefused, "X.509 verification error \(verdict)")
        }
        return TLSFailure(kind: kind, description: "server certificate not trusted: \(words)")
    }

    /// From the reason code of OpenSSL's first error (`ERR_GET_REASON`) when the certificate was not the cause;
    /// `reason` 0 when there was no error queued, `connectionEnded` when the socket ended under the handshake.
    package static func handshake(reason: Int32, connectionEnded: Bool) -> TLSFailure {
        switch reason {
        case SSL_R_UNSUPPORTED_PROTOCOL, SSL_R_TLSV1_ALERT_PROTOCOL_VERSION, SSL_R_NO_PROTOCOLS_AVAILABLE,
             SSL_R_TLSV1_ALERT_INAPPROPRIATE_FALLBACK:
            return TLSFailure(kind: .protocolVersion, description: "the server speaks only a TLS version this client "
                + "refuses as unsafe (TLS 1.0 or 1.1; 1.2 or newer is needed): the server must be updated")
        case SSL_R_WRONG_VERSION_NUMBER:
            return TLSFailure(kind: .notTLS, description: "the server did not answer in TLS (plain HTTP on a port "
                + "given as https or wss?)")
        case SSL_R_SSLV3_ALERT_HANDSHAKE_FAILURE, SSL_R_NO_SHARED_CIPHER, SSL_R_TLSV1_ALERT_INSUFFICIENT_SECURITY:
            return TLSFailure(kind: .noCommonCipher, description: "the server and this client have no cipher in "
                + "common")
        case SSL_R_UNEXPECTED_EOF_WHILE_READING:
            return TLSFailure(kind: .closedDuringHandshake, description: "the server closed the connection during "
                + "the TLS handshake")
        default:
            if reason == 0, connectionEnded {
                return TLSFailure(kind: .closedDuringHandshake, description: "the server closed the connection "
                    + "during the TLS handshake")
            }
            return TLSFailure(kind: .other, description: "the TLS handshake failed (TLS error \(reason))")
        }
    }
}
