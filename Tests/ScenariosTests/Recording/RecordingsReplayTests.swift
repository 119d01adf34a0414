import FlowRecording
import Foundation
import ScenarioTestSupport
import Scenarios
import TestSupport
import Testing

/// Every committed cassette in Recordings/ replays (strict, full crypto), and every bundled
/// scenario has its cassette.
@Suite struct RecordingsReplayTests {
    @Test(arguments: RepoPaths.recordingFiles())
    func replays(_ name: String) async {
        await expectReplay(RepoPaths.recordings + "/" + name)
    }

    /// The M-Pin cassettes are what recording their scenario gives today, byte for byte (the
    /// DeviceSecurity ones are checked in `DeviceRecordingTests`, one at a time).
    @Test(arguments: RepoPaths.recordingFiles().filter { !$0.hasPrefix("ds-") })
    func reRecordingGivesTheCommittedBytes(_ name: String) async throws {
        try await expectReRecording(RepoPaths.recordings + "/" + name)
    }

    @Test func everyBundledScenarioHasACassette() throws {
        let enumerator = FileManager.default.enumerator(atPath: RepoPaths.recordings)
        var names: Set<String> = []
        while let entry = enumerator?.nextObject() as? String {
            if entry.hasSuffix(".json") {
                names.insert(((entry as NSString).lastPathComponent as NSString).deletingPathExtension)
            }
        }
        for file in RepoPaths.library.files() {
            let script = try ScriptParser.parse(file: file)
            #expect(names.contains(script.name), "no Recordings/\(script.name).json for \(file)")
        }
    }
}
