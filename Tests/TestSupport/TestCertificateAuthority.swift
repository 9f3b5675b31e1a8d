import Foundation

/// A certificate authority made for one test with the `openssl` command, and a server certificate it signed for
/// `localhost` and `127.0.0.1`, in a temporary folder that `remove()` deletes. Valid for two days: nothing is
/// kept between runs.
public struct TestCertificateAuthority: Sendable {
    /// The folder holding every file.
    public let directory: String
    /// The CA's certificate (PEM): what a client trusts.
    public var certificate: String { directory + "/ca.pem" }
    /// The server's certificate (PEM), signed by the CA.
    public var serverCertificate: String { directory + "/server.pem" }
    /// The server's private key (PEM).
    public var serverKey: String { directory + "/server.key" }

    private static func configuration(serverNames: String) -> String {
        """
        [req]
        distinguished_name = dn
        prompt = no
        [dn]
        CN = BCStream test CA
        [ca]
        basicConstraints = critical,CA:TRUE
        keyUsage = critical,keyCertSign,cRLSign
        subjectKeyIdentifier = hash
        [server]
        subjectAltName = \(serverNames)
        basicConstraints = critical,CA:FALSE
        keyUsage = critical,digitalSignature
        extendedKeyUsage = serverAuth

        """
    }

    /// Makes the CA and the server certificate (P-256 keys: quick to generate), for `serverNames` (the
    /// certificate's subjectAltName; by default `localhost` and `127.0.0.1`).
    public static func make(serverNames: String = "DNS:localhost,IP:127.0.0.1") async throws -> TestCertificateAuthority {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("bcstream-ca-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let authority = TestCertificateAuthority(directory: directory)
        do {
            let config = directory + "/openssl.cnf"
            try configuration(serverNames: serverNames).write(toFile: config, atomically: true, encoding: .utf8)
            let key = ["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out"]
            try await openssl(key + [directory + "/ca.key"])
            try await openssl(["req", "-new", "-x509", "-key", directory + "/ca.key", "-out", authority.certificate,
                               "-days", "2", "-config", config, "-extensions", "ca"])
            try await openssl(key + [authority.serverKey])
            try await openssl(["req", "-new", "-key", authority.serverKey, "-subj", "/CN=localhost",
                               "-config", config, "-out", directory + "/server.csr"])
            try await openssl(["x509", "-req", "-in", directory + "/server.csr", "-CA", authority.certificate,
                               "-CAkey", directory + "/ca.key", "-set_serial", "2", "-days", "2",
                               "-extfile", config, "-extensions", "server", "-out", authority.serverCertificate])
        } catch {
            authority.remove()
            throw error
        }
        return authority
    }

    /// A certificate for `localhost` and `127.0.0.1` signed by this CA but valid only on 1 and 2 January 2020
    /// (`openssl ca`, which alone takes dates), with the server key: (certificate, key) paths.
    public func expiredServerCertificate() async throws -> (certificate: String, key: String) {
        let config = directory + "/expired.cnf"
        try """
            [ca]
            default_ca = expired
            [expired]
            database = \(directory)/index.txt
            new_certs_dir = \(directory)
            serial = \(directory)/serial
            default_md = sha256
            policy = anything
            unique_subject = no
            [anything]
            commonName = supplied
            [server]
            subjectAltName = DNS:localhost,IP:127.0.0.1
            basicConstraints = critical,CA:FALSE
            keyUsage = critical,digitalSignature
            extendedKeyUsage = serverAuth

            """.write(toFile: config, atomically: true, encoding: .utf8)
        try "".write(toFile: directory + "/index.txt", atomically: true, encoding: .utf8)
        try "03\n".write(toFile: directory + "/serial", atomically: true, encoding: .utf8)
        let certificate = directory + "/expired.pem"
        try await Self.openssl(["ca", "-batch", "-config", config, "-cert", self.certificate, "-keyfile",
                                directory + "/ca.key", "-in", directory + "/server.csr", "-out", certificate,
                                "-startdate", "20200101000000Z", "-enddate", "20200102000000Z",
                                "-extensions", "server", "-notext"])
        return (certificate, serverKey)
    }

    /// A self-signed certificate for `localhost` and `127.0.0.1`, with its own key: (certificate, key) paths.
    public func selfSignedCertificate() async throws -> (certificate: String, key: String) {
        let certificate = directory + "/self.pem", key = directory + "/self.key"
        try await Self.openssl(["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                                "-keyout", key, "-out", certificate, "-days", "2", "-subj", "/CN=localhost",
                                "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"])
        return (certificate, key)
    }

    /// Deletes the folder and everything in it.
    public func remove() {
        try? FileManager.default.removeItem(atPath: directory)
    }

    private static func openssl(_ arguments: [String]) async throws {
        let process = try PeerProcess(executable: "/usr/bin/env", arguments: ["openssl"] + arguments,
                                      name: "openssl \(arguments[0])")
        defer { process.stop() }
        let status = try await process.exitStatus(within: .seconds(10))
        guard status == 0 else {
            throw PeerFailed(description: "openssl \(arguments.joined(separator: " ")) failed (\(status)): "
                + process.stderr)
        }
    }
}
