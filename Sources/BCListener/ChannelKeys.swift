import BCMessages
import Foundation

/// The channel keys `listen` follows: from `--key` and `--keys-file`, checked and without repeats.
///
/// Each key becomes a `ChannelKey` (checked: a key holding a TAB or a line break would send another command); keys
/// come from files people are handed, so the error names the file and line.
public enum ChannelKeys {
    /// The most keys one `listen` follows.
    public static let maxKeys = 100_000
    /// The largest keys file read.
    public static let maxFileBytes = 16 * 1024 * 1024

    /// Why the keys cannot be followed, in words for the person who gave them (escaped: a key or a path may
    /// hold anything).
    public struct Problem: Error, CustomStringConvertible {
        /// What is wrong and where (`--key`, or the file and line).
        public let description: String

        /// A problem told in `description`'s words.
        public init(description: String) {
            self.description = description
        }
    }

    /// `keys` then the keys of `file` (one a line; blank lines and lines starting with `#` skipped; `-` reads
    /// stdin), in order, each once.
    public static func collect(keys: [String], file: String?) throws(Problem) -> [ChannelKey] {
        var all: [(key: String, origin: String)] = keys.map { ($0, "--key") }
        if let file { all += try read(file) }
        var seen = Set<ChannelKey>()
        var result: [ChannelKey] = []
        for (text, origin) in all {
            let key: ChannelKey
            do {
                key = try ChannelKey(text, from: origin)
            } catch {
                throw Problem(description: error.description)
            }
            if seen.insert(key).inserted { result.append(key) }
        }
        if result.count > maxKeys {
            throw Problem(description: "\(result.count) keys: at most \(maxKeys) channels in one listen; split them "
                + "over several processes (or see `bcstream worker`)")
        }
        return result
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
