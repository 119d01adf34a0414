import FlowRecording
import JSONOracle
import OrderedJSON
import Testing

/// OrderedJSON against jansson on the accept/reject cases written after JSONTestSuite's categories
/// (`Fixtures/json-cases.json`): each case's verdicts and `cassette lint --portable` findings as the
/// file states them, and every rule of `Differential`. A failure names the case.
@Suite struct JSONTestSuiteTests {
    static let cases: [SuiteCase] = (try? SuiteCase.all()) ?? []

    @Test func theFixtureIsRead() throws {
        let cases = try SuiteCase.all()
        #expect(cases.count >= 300, "only \(cases.count) cases")
        #expect(Set(cases.map(\.name)).count == cases.count, "a case name repeats")
        for prefix in ["y_", "n_", "i_"] {
            #expect(cases.contains { $0.name.hasPrefix(prefix) }, "no \(prefix) case")
        }
    }

    @Test(arguments: cases)
    func bothParsersGiveTheStatedVerdicts(_ suiteCase: SuiteCase) {
        let reading = Differential(suiteCase.bytes, name: suiteCase.name)
        #expect(
            (reading.oursAccepts ? SuiteCase.Verdict.accept : .reject) == suiteCase.ours,
            "\(suiteCase.name): OrderedJSON should \(suiteCase.ours.rawValue) it (\(reading.ours))")
        #expect(
            (reading.janssonAccepts ? SuiteCase.Verdict.accept : .reject) == suiteCase.jansson,
            "\(suiteCase.name): jansson should \(suiteCase.jansson.rawValue) it (\(reading.janssonErrorText(reading.jansson)))"
        )
        #expect(
            reading.kinds.sorted == suiteCase.portable,
            "\(suiteCase.name): cassette lint --portable should report \(suiteCase.portable), reports \(reading.kinds.sorted)"
        )
        for problem in reading.problems { Issue.record(Comment(rawValue: problem)) }
    }

    /// A y_ case that jansson refuses, or an i_ case where the verdicts differ, is a listed
    /// difference: `portable` must name it, or lint would hide it.
    @Test func everyDifferenceInTheFixtureIsNamed() throws {
        for suiteCase in try SuiteCase.all() where suiteCase.ours == .accept && suiteCase.jansson == .reject {
            #expect(!suiteCase.portable.isEmpty, "\(suiteCase.name): jansson refuses it and no finding is listed")
        }
    }
}
