// Foundation rather than FoundationEssentials: telling a folder from a file needs `ObjCBool` on Linux.
import Foundation

/// Resolves the arguments of `bcstream replay` to sources, and reads sources into items.
///
/// An argument is, in this order:
/// - an existing folder: every `*.json` directly inside, by `t` then name (as the test harness reads
///   `Tests/Payloads`); other files, and subfolders such as `Invalid/`, are not read;
/// - an existing file: a recording when it ends in `.ndjson` or its first line is a recorded frame, a
///   fixture when it ends in `.json`, an error otherwise;
/// - a word naming fixtures of the default folder: a fixture name, a `t` or a kind (`FixtureCatalog`).
///
/// No argument at all means the whole default folder. Relative paths, the default folder's included, are
/// resolved against `currentDirectory`; items keep the paths as given, so messages show what the user typed.
/// The default folder may lie elsewhere (an absolute path): `bcstream replay` resolves what the user typed
/// against the directory they stand in, and looks names up in the checkout's fixtures only when no such path
/// exists there.
///
/// The items play in the order of the arguments, each source in its own order, except that by default the
/// fixtures that end the live (t=8, t=123: `BCType.endsLive`) play after everything else: replaying every fixture
/// into a listener, which stops at the end of the live, delivers every other fixture first.
public struct ReplayLoader: Hashable, Sendable {
    /// Where fixtures live in the BCStream checkout.
    public static let defaultFolderPath = "Tests/Payloads"

    /// The directory relative paths start from.
    public var currentDirectory: String
    /// The folder used with no argument, and where names, `t`s and kinds are looked up.
    public var defaultFolder: String

    /// A loader that resolves relative paths from the process's current directory and looks fixtures up in
    /// `Tests/Payloads`, unless told otherwise.
    public init(currentDirectory: String = FileManager.default.currentDirectoryPath,
                defaultFolder: String = ReplayLoader.defaultFolderPath) {
        self.currentDirectory = currentDirectory
        self.defaultFolder = defaultFolder
    }

    // MARK: - Arguments to sources

    /// The sources the arguments name, in order; the default folder when there are none.
    public func sources(for arguments: [String]) throws(ReplayError) -> [ReplaySource] {
        guard !arguments.isEmpty else {
            guard isDirectory(absolute(defaultFolder)) else {
                throw .defaultFolderMissing(folder: defaultFolder, currentDirectory: currentDirectory, argument: nil)
            }
            return [.folder(path: defaultFolder)]
        }
        var catalog: FixtureCatalog?
        var sources: [ReplaySource] = []
        for argument in arguments {
            sources.append(try source(for: argument, catalog: &catalog))
        }
        return sources
    }

    /// The source one argument names.
    public func source(for argument: String) throws(ReplayError) -> ReplaySource {
        var catalog: FixtureCatalog?
        return try source(for: argument, catalog: &catalog)
    }

    /// `catalog` is the default folder's, read on the first word that needs it and kept for the next.
    private func source(for argument: String, catalog: inout FixtureCatalog?) throws(ReplayError) -> ReplaySource {
        let path = absolute(argument)
        if isDirectory(path) { return .folder(path: argument) }
        if FileManager.default.fileExists(atPath: path) {
            // A recording is read once, when it is loaded (a large one is tens of megabytes); only a file of another
            // extension is read here, to tell a recording by its first line.
            if argument.hasSuffix(".ndjson") { return .recording(path: argument) }
            let text = try readText(at: argument)
            if RecordingParser.looksLikeRecording(text) {
                return .recording(path: argument)
            }
            if argument.hasSuffix(".json") { return .fixture(path: argument) }
            throw .neitherFixtureNorRecording(path: argument)
        }
        if argument.contains("/") || argument.hasSuffix(".ndjson") { throw .notFound(path: argument) }
        let fixtures: FixtureCatalog
        if let catalog {
            fixtures = catalog
        } else {
            guard isDirectory(absolute(defaultFolder)) else {
                if argument.hasSuffix(".json") { throw .notFound(path: argument) }
                throw .defaultFolderMissing(folder: defaultFolder, currentDirectory: currentDirectory,
                                            argument: argument)
            }
            fixtures = try self.catalog(folder: defaultFolder)
            catalog = fixtures
        }
        if let selection = fixtures.select(argument) { return .selection(selection) }
        throw .unknownSource(argument: argument, folder: defaultFolder,
                             suggestions: fixtures.suggestions(for: argument))
    }

    // MARK: - Sources to items

    /// The items of the sources the arguments name (see `sources(for:)`), with the problems met; the fixtures
    /// that end the live last unless `liveEndsLast` is false.
    public func load(arguments: [String], liveEndsLast: Bool = true) throws(ReplayError) -> ReplayPlaylist {
        try load(sources(for: arguments), liveEndsLast: liveEndsLast)
    }

    /// The items of every source, in order, with the problems met; the fixtures that end the live moved after
    /// the rest (`ReplayPlaylist.moveLiveEndsLast()`) unless `liveEndsLast` is false.
    public func load(_ sources: [ReplaySource], liveEndsLast: Bool = true) throws(ReplayError) -> ReplayPlaylist {
        var playlist = ReplayPlaylist()
        for source in sources {
            playlist.append(try load(source))
        }
        if liveEndsLast { playlist.moveLiveEndsLast() }
        return playlist
    }

    /// The items of one source in its own order, with the problems met. Malformed lines of a recording and unreadable files of
    /// a folder are problems; a source that cannot be read at all is an error.
    public func load(_ source: ReplaySource) throws(ReplayError) -> ReplayPlaylist {
        switch source {
        case .fixture(let path):
            return ReplayPlaylist(items: [try fixture(at: path).item])
        case .folder(let path):
            let catalog = try catalog(folder: path)
            return ReplayPlaylist(items: catalog.fixtures.map(\.item), problems: catalog.problems)
        case .selection(let selection):
            return ReplayPlaylist(items: selection.items)
        case .recording(let path):
            return RecordingParser.parse(utf8: try readBytes(at: path), file: path)
        }
    }

    /// The fixtures of a folder: every `*.json` directly inside. A file that cannot be read is a problem of
    /// the catalog; a folder without any `*.json` is an error.
    public func catalog(folder: String) throws(ReplayError) -> FixtureCatalog {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: absolute(folder))
        } catch {
            throw .unreadable(path: folder, reason: Self.reason(error))
        }
        let prefix = folder.hasSuffix("/") ? folder : folder + "/"
        let paths = names.filter { $0.hasSuffix(".json") }.map { prefix + $0 }.filter { !isDirectory(absolute($0)) }
        guard !paths.isEmpty else { throw .noFixtures(folder: folder) }
        var fixtures: [Fixture] = []
        var problems: [ReplayProblem] = []
        for path in paths {
            do {
                fixtures.append(try fixture(at: path))
            } catch {
                let reason = if case .unreadable(_, let reason) = error { reason } else { "\(error)" }
                problems.append(ReplayProblem(location: ReplaySourceLocation(file: path, line: 1),
                                              message: "cannot be read (\(reason)), left out"))
            }
        }
        return FixtureCatalog(folder: folder, fixtures: fixtures, problems: problems)
    }

    /// The default folder's fixtures, or an error saying what to pass when it is missing.
    public func defaultCatalog() throws(ReplayError) -> FixtureCatalog {
        guard isDirectory(absolute(defaultFolder)) else {
            throw .defaultFolderMissing(folder: defaultFolder, currentDirectory: currentDirectory, argument: nil)
        }
        return try catalog(folder: defaultFolder)
    }

    /// One fixture file, its bytes exactly.
    public func fixture(at path: String) throws(ReplayError) -> Fixture {
        let file = path.split(separator: "/").last.map(String.init) ?? path
        let name = file.hasSuffix(".json") ? String(file.dropLast(5)) : file
        return Fixture(name: name, path: path, json: try readText(at: path))
    }

    // MARK: - Files

    /// A path made absolute against the current directory.
    func absolute(_ path: String) -> String {
        if path.hasPrefix("/") { return path }
        return currentDirectory.hasSuffix("/") ? currentDirectory + path : currentDirectory + "/" + path
    }

    private func isDirectory(_ absolutePath: String) -> Bool {
        var directory: ObjCBool = false
        return FileManager.default.fileExists(atPath: absolutePath, isDirectory: &directory) && directory.boolValue
    }

    /// A file's text, exactly its bytes; they must be UTF-8, as every bcsvr frame is.
    private func readText(at path: String) throws(ReplayError) -> String {
        String(decoding: try readBytes(at: path), as: UTF8.self)
    }

    /// A file's bytes, checked to be UTF-8 where they lie (no copy into a String: a recording is read from them).
    private func readBytes(at path: String) throws(ReplayError) -> Data {
        let data: Data
        do {
            data = try Data(contentsOf: URL(filePath: absolute(path)))
        } catch {
            throw .unreadable(path: path, reason: Self.reason(error))
        }
        let valid = if #available(macOS 26, iOS 26, *) {
            data.withUnsafeBytes { raw in
                (try? UTF8Span(validating: raw.assumingMemoryBound(to: UInt8.self).span)) != nil
            }
        } else {
            String(validating: data, as: UTF8.self) != nil
        }
        guard valid else { throw .unreadable(path: path, reason: "it is not UTF-8 text") }
        return data
    }

    /// Why a file operation failed, in a few words.
    private static func reason(_ error: any Error) -> String {
        guard let error = error as? CocoaError else { return "\(error)" }
        switch error.code {
        case .fileReadNoSuchFile, .fileNoSuchFile: return "no such file"
        case .fileReadNoPermission: return "permission denied"
        case .fileReadInvalidFileName: return "invalid file name"
        case .fileReadTooLarge: return "too large"
        default: return "error \(error.code.rawValue)"
        }
    }
}
