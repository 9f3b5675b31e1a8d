/// One argument of `bcstream replay`, resolved: what it names and where that is. `ReplayLoader` turns
/// arguments into sources and sources into items.
public enum ReplaySource: Hashable, Sendable, Codable, CustomStringConvertible {
    /// One fixture file.
    case fixture(path: String)
    /// Every `*.json` directly inside a folder, in order of `t`, then name.
    case folder(path: String)
    /// Fixtures of the default folder chosen by name, `t` or kind (already read).
    case selection(FixtureCatalog.Selection)
    /// A recording: one `RecordedFrame` a line.
    case recording(path: String)

    public var description: String {
        switch self {
        case .fixture(let path): "fixture \(path)"
        case .folder(let path): "fixtures in \(path)"
        case .selection(let selection): selection.description
        case .recording(let path): "recording \(path)"
        }
    }
}
