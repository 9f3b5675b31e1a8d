import BCMessages
import Foundation

/// The channel keys `listen` follows: from `--key` and `--keys-file`, checked and without repeats.
///
/// A key goes into the `SUB\t<key>` line sent to the server, so a key holding a TAB or a line break would send
/// another command; keys come from files people are handed, so every key is checked, with the file and line
/// named in the error.
enum ChannelKeys {
    /// The longest key accepted (a bcsvr key is about 16 bytes: `118f91f:UdoBre1M`).
    static let maxKeyBytes = 256
    /// The most keys one `listen` follows.
    static let maxKeys = 100_000
    /// The largest keys file read.
    static let maxFileBytes = 16 * 1024 * 1024

    struct Problem: Error, CustomStringConvertible {
        let description: String
    }

    /// `keys` then the keys of `file` (one a line; blank lines and lines starting with `#` skipped; `-` reads
    /// stdin), in order, each once.
    static func collect(keys: [String], file: String?) throws(Problem) -> [String] {
        var all: [(key: String, origin: String)] = keys.map { ($0, "--key") }
        if let file { all += try read(file) }
        var seen = Set<String>()
        var result: [String] = []
        for (key, origin) in all {
            if let problem = problem(with: key) {
                throw Problem(description: TerminalText.escaped("\(origin): \(problem): \"\(key.prefix(80))\""))
            }
            if seen.insert(key).inserted { result.append(key) }
        }
        if result.count > maxKeys {
            throw Problem(description: "\(result.count) keys: at most \(maxKeys) channels in one listen; split them "
                + "over several processes (or see `bcstream worker`)")
        }
        return result
    }

    /// What is wrong with a key, or nil.
    static func problem(with key: String) -> String? {
        if key.isEmpty { return "an empty key" }
        if key.utf8.count > maxKeyBytes { return "a key longer than \(maxKeyBytes) bytes" }
        if key.unicodeScalars.contains(where: { $0.properties.generalCategory == .control || $0 == " " }) {
            return "a key with a space, TAB, line break or other control character (it would break the SUB line)"
        }
        return nil
    }

    private static func read(_ path: String) throws(Problem) -> [(key: String, origin: String)] {
        let data: Data
        do {
            if path == "-" {
                data = try FileHandle.standardInput.read(upToCount: maxFileBytes + 1) ?? Data()
            } else {
                let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
                defer { try? handle.close() }
                data = try handle.read(upToCount: maxFileBytes + 1) ?? Data()
            }
        } catch {
            throw Problem(description: TerminalText.escaped("cannot read the keys file \(path): \(error.localizedDescription)"))
        }
        if data.count > maxFileBytes {
            throw Problem(description: TerminalText.escaped("the keys file \(path) is larger than \(maxFileBytes / 1024 / 1024) MiB"))
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw Problem(description: TerminalText.escaped("the keys file \(path) is not UTF-8 text"))
        }
        var keys: [(key: String, origin: String)] = []
        // "\r\n" is one Character: split on both forms of line end.
        let lines = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" }
        for (number, line) in lines.enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces.union(CharacterSet(charactersIn: "\r")))
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            keys.append((trimmed, "\(path) line \(number + 1)"))
        }
        return keys
    }
}
