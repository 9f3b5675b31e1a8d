// Foundation rather than FoundationEssentials: `Bundle` finds the resource bundle beside the running program.
import BCMessages
import Foundation

/// BCStream's fixtures, for other packages' tests: every message of `Tests/Payloads`, shipped as this target's
/// resource bundle, so that an app that depends on BCStream can guard its own decoding with them:
///
/// ```swift
/// import BCFixtures
/// import BCMessages
/// import Foundation
/// import Testing
///
/// @Test(arguments: BCFixtures.all)
/// func decodes(_ fixture: BCFixture) throws {
///     _ = try BCMessageDecoder().decode(Data(fixture.bytes))
/// }
/// ```
///
/// The files are found in the resource bundle beside the running program (as `swift build` and `swift test`
/// place it), else in the source folder this target was built from.
public enum BCFixtures {
    /// The folder of the bundle that holds the fixtures: `Payloads` in `BCStream_BCFixtures.resources`.
    static let bundleFolder = "Payloads"
    /// The resource bundle's names, as SwiftPM calls it on Linux and on Apple platforms.
    static let bundleNames = ["BCStream_BCFixtures.resources", "BCStream_BCFixtures.bundle"]
    /// The source folder this target was built from: `Tests/Payloads`, beside this file's folder.
    static let sourceFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Payloads")

    /// The folder the fixtures are read from, nil when neither the bundle nor the source folder is there (a
    /// program copied without its `BCStream_BCFixtures.resources`, its checkout gone).
    public static let folder: URL? = {
        let places = [Bundle.main.resourceURL, Bundle.main.bundleURL, Bundle.main.bundleURL.deletingLastPathComponent()]
        for place in places.compactMap(\.self) {
            for name in bundleNames {
                let folder = place.appendingPathComponent(name).appendingPathComponent(bundleFolder)
                if isDirectory(folder) { return folder }
            }
        }
        return isDirectory(sourceFolder) ? sourceFolder : nil
    }()

    /// Every valid fixture, in order of `t`, then name. Stops the program with a message saying what is missing
    /// when the fixtures cannot be found (`folder` is nil): a test that silently ran over no fixture would pass.
    public static let all: [BCFixture] = load(subfolder: nil)

    /// The invalid messages (`Tests/Payloads/Invalid`), each with the error its decoding must report
    /// (`expectedError`), in order of `t`, then name. Apart from `all`: none of them decodes.
    public static let invalid: [BCFixture] = load(subfolder: "Invalid")

    /// The fixture of this name (with or without `.json`), nil when there is none.
    public static func fixture(named name: String) -> BCFixture? {
        let name = name.hasSuffix(".json") ? String(name.dropLast(5)) : name
        return all.first { $0.name == name }
    }

    /// The fixtures of this `t`.
    public static func fixtures(t: Int) -> [BCFixture] {
        all.filter { $0.t == t }
    }

    /// The fixtures of this kind.
    public static func fixtures(kind: BCType) -> [BCFixture] {
        all.filter { $0.kind == kind }
    }

    private static func load(subfolder: String?) -> [BCFixture] {
        guard let root = folder else {
            fatalError("BCFixtures: the fixtures are missing: \(bundleNames[0]) is not beside this program "
                + "(\(Bundle.main.bundleURL.path)) and \(sourceFolder.path) does not exist. "
                + "Build with SwiftPM, or copy \(bundleNames[0]) beside the program.")
        }
        let directory = subfolder.map { root.appendingPathComponent($0) } ?? root
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        } catch {
            fatalError("BCFixtures: cannot list \(directory.path): \(error)")
        }
        return names.filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }
            .sorted(by: BCFixture.precedes(name:_:))
            .map { name in
                let file = directory.appendingPathComponent(name + ".json")
                let expected = subfolder == nil ? nil
                    : (try? String(contentsOf: directory.appendingPathComponent(name + ".error"), encoding: .utf8))
                        .map { $0.trimmingCharacters(in: .newlines) }
                guard let data = try? Data(contentsOf: file) else {
                    fatalError("BCFixtures: cannot read \(file.path)")
                }
                return BCFixture(name: name, bytes: [UInt8](data), expectedError: expected)
            }
    }

    private static func isDirectory(_ url: URL) -> Bool {
        var directory: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &directory) && directory.boolValue
    }
}
