import BCFixtures
import BCMessages
import Foundation
import Testing

/// BCFixtures' getting-started article, its example as printed there: a parameterized test, run as it is.
@Suite("BCFixtures getting started")
struct BCFixturesGettingStarted {
    // >>> printed in Tests/BCFixtures.docc/GettingStarted.md
    @Test(arguments: BCFixtures.all)                 // one case per fixture, named after its file
    func decodes(_ fixture: BCFixture) throws {
        _ = try BCMessageDecoder().decode(Data(fixture.bytes))
    }
    // <<< printed
}
