import Foundation

/// A throwaway CA and a `localhost` server certificate it signed, made with the openssl CLI in a
/// fresh temporary directory (removed by `remove()`).
struct TestCertificates {
    let directory: URL
    var caFile: String { directory.appendingPathComponent("ca.pem").path }
    var certificateFile: String { directory.appendingPathComponent("server.pem").path }
    var keyFile: String { directory.appendingPathComponent("server.key").path }

    static func make() throws -> TestCertificates {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("bcwebsocket-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let extensions = """
            subjectAltName=DNS:localhost,IP:127.0.0.1
            basicConstraints=CA:FALSE
            keyUsage=digitalSignature
            extendedKeyUsage=serverAuth

            """
        try extensions.write(to: directory.appendingPathComponent("server.ext"), atomically: true, encoding: .utf8)
        let curve = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        try openssl(["req", "-x509"] + curve + ["-keyout", "ca.key", "-out", "ca.pem", "-days", "2",
                     "-subj", "/CN=BCStream Test CA",
                     "-addext", "basicConstraints=critical,CA:TRUE",
                     "-addext", "keyUsage=critical,keyCertSign,cRLSign"], in: directory)
        try openssl(["req"] + curve + ["-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=localhost"],
                    in: directory)
        try openssl(["x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key",
                     "-CAcreateserial", "-out", "server.pem", "-days", "2", "-extfile", "server.ext"],
                    in: directory)
        return TestCertificates(directory: directory)
    }

    func remove() {
        try? FileManager.default.removeItem(at: directory)
    }

    private static func openssl(_ arguments: [String], in directory: URL) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments = arguments
        process.currentDirectoryURL = directory
        process.standardOutput = FileHandle.nullDevice
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let detail = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw PeerFailed(description: "openssl \(arguments.joined(separator: " ")) failed: "
                + String(decoding: detail, as: UTF8.self))
        }
    }
}
