import Foundation
import ScenarioTestSupport
import Scenarios
import TestSupport
import Testing

/// Recording a DeviceSecurity scenario again against the embedded backend (`record --embedded`: its
/// seed, a frozen clock, the stable origin) gives the committed cassette byte for byte, so the cassettes are what
/// the code does today. `ds-network-error` is included: a timeout is stated by its limit, not by
/// the measured time.
@Suite(.serialized) struct DeviceRecordingTests {
    static let names = DeviceScenarioTests.scripts
        .map { (($0 as NSString).lastPathComponent as NSString).deletingPathExtension }

    @Test(arguments: DeviceRecordingTests.names)
    func reRecordingGivesTheCommittedBytes(name: String) async throws {
        try await expectReRecording(RepoPaths.path("Recordings/\(name).json"))
    }
}
