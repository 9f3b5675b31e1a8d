import Foundation

/// Why an input of `decode` was not read, told on stderr in plain words.
public enum DecodeProblem: Hashable, Sendable, CustomStringConvertible {
    /// It could not be opened or read: `no such file`, `permission denied`…
    case unreadable(path: String, reason: String)
    /// It holds a NUL byte near its start: binary data, not text.
    case binary(path: String)
    /// A `.json` fixture larger than any message could be.
    case tooLarge(path: String, limit: Int)
    /// Something in a folder that is neither a file nor a folder (a socket, a FIFO), left alone.
    case notAFile(path: String)

    /// The problem in a few plain words, naming the path.
    public var description: String {
        switch self {
        case .unreadable(let path, let reason): "cannot read \(path): \(reason)"
        case .binary(let path): "\(path) looks binary, not text; skipped"
        case .tooLarge(let path, let limit): "\(path) is larger than \(limit >> 20) MiB, too large for one message; skipped"
        case .notAFile(let path): "\(path) is neither a file nor a folder; skipped"
        }
    }

    /// A problem that makes the run fail (exit status 1). Leaving a socket alone does not.
    public var isFailure: Bool {
        if case .notAFile = self { return false }
        return true
    }

    /// What reading `source` failed on.
    public init(_ failure: LineReader.Failure, source: DecodeSource) {
        switch failure {
        case .binary: self = .binary(path: source.name)
        case .system(let code): self = .unreadable(path: source.name, reason: Self.reason(errno: code))
        case .tooLarge(let limit): self = .tooLarge(path: source.name, limit: limit)
        }
    }

    /// An `errno` in a few plain words.
    public static func reason(errno code: Int32) -> String {
        switch code {
        case ENOENT: "no such file"
        case EACCES, EPERM: "permission denied"
        case ENOTDIR: "a part of the path is not a folder"
        case EISDIR: "it is a folder"
        case ELOOP: "too many symbolic links"
        case ENAMETOOLONG: "the name is too long"
        case EIO: "input/output error"
        default:
            String(cString: strerror(code)).lowercased()
        }
    }
}
