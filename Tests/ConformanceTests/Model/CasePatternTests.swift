import Conformance
import Testing

@Suite struct CasePatternTests {
    @Test func globsMatchCaseIDs() throws {
        let pattern = try #require(CasePattern("pass2.*, pin.block-*"))
        #expect(pattern.matches("pass2.single-use"))
        #expect(pattern.matches("pin.block-after-three"))
        #expect(!pattern.matches("pass1.u-off-curve"))
        #expect(!pattern.matches("pin.wrong-refused"))
    }

    @Test func aBareGroupSelectsItsCases() throws {
        let pattern = try #require(CasePattern("pin"))
        #expect(pattern.matches("pin.wrong-refused"))
        #expect(!pattern.matches("pinned.x"))
        #expect(try #require(CasePattern("pass?.*")).matches("pass1.answer"))
    }

    @Test func emptyPatternsAreRefused() {
        #expect(CasePattern("") == nil)
        #expect(CasePattern("pin,,pass2.*") == nil)
    }

    @Test func caseIDsAreUniqueAndDotted() {
        let ids = ConformanceCatalog.all.map(\.id)
        #expect(Set(ids).count == ids.count)
        for conformanceCase in ConformanceCatalog.all {
            #expect(
                conformanceCase.id.hasPrefix(conformanceCase.group.rawValue) || conformanceCase.id.contains("."),
                "\(conformanceCase.id)")
            #expect(
                !conformanceCase.source.isEmpty && !conformanceCase.sends.isEmpty && !conformanceCase.expects.isEmpty)
        }
    }
}
