import FlowRecording
import Foundation
import Scenarios
import Testing

/// Every committed cassette in Recordings/ replays (strict, full crypto), and every bundled
/// scenario has its cassette.
@Suite struct RecordingsReplayTests {
    @Test(arguments: RepoPaths.recordingFiles())
    func replays(_ name: String) async {
        await expectReplay(RepoPaths.recordings + "/" + name)
    }

    @Test func everyBundledScenarioHasACassette() throws {
        let names = Set(RepoPaths.recordingFiles().map { String($0.dropLast(5)) })
        for file in RepoPaths.library.files() {
            let script = try ScriptParser.parse(file: file)
            #expect(names.contains(script.name), "no Recordings/\(script.name).json for \(file)")
        }
    }
}
