import BCMessages

/// A line of a report for a person (stderr, a text-format error) as it may be printed: every control shown
/// escaped (`TerminalText.escaped`), since reports quote text from the network, clients and the disk, and at
/// most `limit` Unicode scalars. The quoted parts are excerpts already; the limit also stops a quote of a few
/// characters that is a megabyte long (one character can hold any number of combining marks).
public func reportLine(_ text: String, limit: Int = reportLimit) -> String {
    TerminalText.escaped(TerminalText.excerpt(text, limit: limit))
}

/// The longest report line `reportLine` keeps, in Unicode scalars: far more than any report with its excerpts.
public let reportLimit = 1000
