import BCFixtures
import Foundation

/// Where the fixtures are, for `bcstream replay` and `demo` and `bcstream-bench --end-to-end`: `Tests/Payloads`
/// under the current directory (a checkout, where a fixture just added is seen at once), or else the BCFixtures
/// product's folder: its resource bundle beside the program, or the checkout the program was built from. So
/// `swift run bcstream demo` works from any directory of the checkout, and `bcstream replay gift` from anywhere.
public enum FixtureFolder {
    /// A loader for what the user typed: paths are resolved against the directory the user stands in, first;
    /// only an argument that names no file or folder there is looked up as a fixture name, a `t` or a kind in
    /// the fixture folder (`path(from:)`).
    public static func loader() -> ReplayLoader {
        let current = FileManager.default.currentDirectoryPath
        return ReplayLoader(currentDirectory: current, defaultFolder: path(from: current))
    }

    /// The fixture folder as seen from `current`: `Tests/Payloads` when it is there (shown as such), else
    /// `shipped` (BCFixtures' folder) by its absolute path; `Tests/Payloads` again when neither exists, so that
    /// the error names the folder that was looked for in the directory the user stands in.
    static func path(from current: String, shipped: String? = BCFixtures.folder?.path) -> String {
        let relative = ReplayLoader.defaultFolderPath
        if isDirectory(current + "/" + relative) { return relative }
        guard let shipped, isDirectory(shipped) else { return relative }
        return shipped
    }

    private static func isDirectory(_ path: String) -> Bool {
        var directory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &directory) && directory.boolValue
    }
}
