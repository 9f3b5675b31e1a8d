import BCReplay
import Foundation

enum Checkout {
    /// The package's root, found from this file: `Tests/BCReplayTests/Support.swift`.
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    static let payloads = root + "/Tests/Payloads"

    /// A loader run from the checkout, as `bcstream replay` is.
    static let loader = ReplayLoader(currentDirectory: root)

    /// The names of every `*.json` directly under `Tests/Payloads`, read independently of BCReplay.
    static func fixtureNames(in folder: String = payloads) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder)
            .filter { $0.hasSuffix(".json") }
            .map { String($0.dropLast(5)) }
    }

    /// A fixture's exact bytes, read independently of BCReplay.
    static func bytes(of name: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: payloads + "/" + name + ".json"))
    }

    /// The default folder's catalog.
    static func catalog() throws -> FixtureCatalog {
        try loader.defaultCatalog()
    }
}

/// A directory of its own under the temporary directory, removed when the test is done with it.
final class TemporaryDirectory {
    let path: String

    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("bcreplay-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    @discardableResult
    func write(_ name: String, _ text: String) throws -> String {
        try write(name, Data(text.utf8))
    }

    @discardableResult
    func write(_ name: String, _ data: Data) throws -> String {
        let file = path + "/" + name
        try data.write(to: URL(fileURLWithPath: file))
        return file
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }
}

/// A recording line as `bcstream listen --record` writes it.
func recordedLine(_ time: String, _ text: String, key: String = "118f91f:UdoBre1M") throws -> String {
    let object = ["time": time, "key": key, "text": text]
    let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
    return String(decoding: data, as: UTF8.self)
}
