import Foundation

/// Where the bundled fixtures are, for `bcstream replay` and `demo` and `bcstream-bench --end-to-end`:
/// `Tests/Payloads` under the current directory, or else under the checkout this binary was built from, so that
/// `swift run bcstream demo` works from any directory of the checkout, and `bcstream replay gift` from anywhere.
public enum FixtureFolder {
    /// A loader for what the user typed: paths are resolved against the directory the user stands in, first;
    /// only an argument that names no file or folder there is looked up as a fixture name, a `t` or a kind in
    /// the fixture folder (`path(from:)`).
    public static func loader() -> ReplayLoader {
        let current = FileManager.default.currentDirectoryPath
        return ReplayLoader(currentDirectory: current, defaultFolder: path(from: current))
    }

    /// The fixture folder as seen from `current`: `Tests/Payloads` when it is there (shown as such), else the
    /// checkout's, by its absolute path; `Tests/Payloads` again when neither exists, so that the error names
    /// the folder that was looked for in the directory the user stands in.
    static func path(from current: String, checkout: String = builtCheckout) -> String {
        let relative = ReplayLoader.defaultFolderPath
        if isDirectory(current + "/" + relative) { return relative }
        let bundled = checkout + "/" + relative
        return isDirectory(bundled) ? bundled : relative
    }

    /// The checkout this binary was built from, found from this source file's path.
    static let builtCheckout = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    private static func isDirectory(_ path: String) -> Bool {
        var directory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &directory) && directory.boolValue
    }
}
