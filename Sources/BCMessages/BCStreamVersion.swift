/// The BCStream release this code is, in one place: `bcstream --version` prints it, and a test holds the README's
/// `from:` and CHANGELOG.md's newest entry to it. Bumped with the release's git tag (`v0.7.0`).
public enum BCStreamVersion {
    /// The release, as semantic versioning writes it (`"0.7.0"`).
    public static let current = "0.7.0"
}
