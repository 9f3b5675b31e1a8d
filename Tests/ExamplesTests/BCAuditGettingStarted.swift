import BCAudit
import Testing

/// BCAudit's getting-started article, its example as printed there, run.
@Suite("BCAudit getting started")
struct BCAuditGettingStarted: PrintingExamples {
    let printed = PrintedLines()

    @Test("the audit of a two-line capture finds the gift's new key `glow` and prints its report")
    func auditingACapture() throws {
        // >>> printed in Sources/BCAudit/BCAudit.docc/GettingStarted.md
        let capture = """
            {"t":35,"u":"100000001","ac":"Taro","gift_id":"2","gift_title":"Heart","coins":"1","count":1,"glow":true}
            {"t":1,"u":"100000002","ac":"Hana","cm":"hello","lci":"7"}
            """
        var audit = Audit()
        for (number, line) in capture.split(separator: "\n").enumerated() {   // NDJSON recordings, frames, messages
            audit.add(line: String(line), at: AuditLocation(source: "live.ndjson", line: number + 1))
        }
        let report = audit.report()
        for kind in report.kinds where !kind.newKeys.isEmpty {
            print(kind.kind, kind.newKeys.map(\.path))                          // gift ["glow"]
        }
        print(report.findings.total == 0 ? "no change" : report.text())
        // <<< printed
        #expect(printed.lines.first == #"gift ["glow"]"#)
        #expect(printed.lines.count == 2 && printed.lines.last?.contains("glow") == true, "\(printed.lines)")
    }
}
