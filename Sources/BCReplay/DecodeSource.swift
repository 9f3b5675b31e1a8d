import Foundation

/// One input of `bcstream decode`, and how an argument names inputs:
/// - `-` is stdin;
/// - a folder is every file inside it, recursively, in sorted order of names, hidden files and folders (names
///   starting with `.`) left out;
/// - a file ending in `.json` is a fixture: one message, possibly over many lines; any other file holds one
///   message (or recorded frame, or bcsvr line) a line.
public enum DecodeSource: Hashable, Sendable {
    /// `-`: this process's stdin, read line by line as it comes.
    case standardInput
    /// A `.json` file: one message, possibly over many lines.
    case fixture(path: String)
    /// Any other file: one message (or recorded frame, or bcsvr line) a line.
    case lines(path: String)

    /// How the input is named in reports: its path as given, or `stdin`.
    public var name: String {
        switch self {
        case .standardInput: "stdin"
        case .fixture(let path), .lines(let path): path
        }
    }

    /// The input a file path names, by its extension.
    public static func file(_ path: String) -> DecodeSource {
        path.hasSuffix(".json") ? .fixture(path: path) : .lines(path: path)
    }

    /// Calls `body` with each input `argument` names, in order, and `problem` with each path that cannot be read
    /// (a missing file, a folder without permission) or is skipped (a socket in a folder).
    public static func forEach(in argument: String, _ body: (DecodeSource) -> Void, problem: (DecodeProblem) -> Void) {
        if argument == "-" { return body(.standardInput) }
        var visited = Set<FileID>()
        walk(argument, named: true, visited: &visited, body, problem: problem)
    }

    /// A file's identity, so that a folder reached twice through symbolic links is read once (and a link to its
    /// own parent does not loop).
    private struct FileID: Hashable {
        let device: UInt64
        let inode: UInt64
    }

    /// `named` is true for the argument itself, false for what was found in a folder: only the latter skips
    /// hidden names and what is neither a file nor a folder (a FIFO given by name is read; one in a folder could
    /// block forever).
    private static func walk(_ path: String, named: Bool, visited: inout Set<FileID>, _ body: (DecodeSource) -> Void,
                             problem: (DecodeProblem) -> Void) {
        var info = stat()
        guard stat(path, &info) == 0 else {
            return problem(.unreadable(path: path, reason: DecodeProblem.reason(errno: errno)))
        }
        switch info.st_mode & S_IFMT {
        case S_IFDIR:
            guard visited.insert(FileID(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))).inserted else {
                return
            }
            let names: [String]
            do {
                names = try entries(of: path)
            } catch {
                return problem(.unreadable(path: path, reason: DecodeProblem.reason(errno: error.code)))
            }
            let prefix = path.hasSuffix("/") ? path : path + "/"
            for name in names.sorted() where !name.hasPrefix(".") {
                walk(prefix + name, named: false, visited: &visited, body, problem: problem)
            }
        case S_IFREG:
            body(file(path))
        default:
            if named { body(file(path)) } else { problem(.notAFile(path: path)) }
        }
    }

    private struct SystemError: Error { let code: Int32 }

    /// The names in a folder, `.` and `..` left out.
    private static func entries(of path: String) throws(SystemError) -> [String] {
        guard let folder = opendir(path) else { throw SystemError(code: errno) }
        defer { closedir(folder) }
        var names: [String] = []
        while true {
            errno = 0
            guard let entry = readdir(folder) else {
                if errno != 0 { throw SystemError(code: errno) }
                return names
            }
            let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
    }
}
