import DeviceSecurity
import FlowRecording
import MPinCrypto
import OrderedJSON
import ReferenceBackend
import Scenarios
import TestVectors
import Testing

/// Every library product of the workbench builds, links and works from a package that depends on
/// it, through its public API only (this package cannot see `package` declarations).
@Suite struct ProductsTests {
    @Test func theCryptoCoreHashesAsSHA256() {
        // SHA-256("abc"), FIPS 180-2 appendix B.1; M-Pin's HASH_ID.
        #expect(Hex.encode(MPin().hashID(Array("abc".utf8)))
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test func orderedJSONKeepsMemberOrderAndNumberLiterals() throws {
        let value = try JSONParser.parse(#"{"b": 1.50, "a": 2}"#)
        #expect(JSONWriter.compact(value) == #"{"b": 1.50, "a": 2}"#)
    }

    @Test func recordingRefusesAnEmptyObjectAsACassette() {
        #expect(throws: CassetteError.self) { try CassetteFile.decode(Array("{}".utf8)) }
    }

    @Test func scenariosParseAScript() throws {
        let script = try ScriptParser.parse("name: t\nsteps: []\n", file: "t.yaml")
        #expect(script.name == "t")
    }

    @Test func vectorsRefuseAFileWithNothingToCheck() {
        #expect(throws: VectorFileError.self) { try SuiteFileVerifier.verify(text: "{}", file: "v.json") }
    }

    @Test func theConnectorsStoreKeepsTheDeviceState() throws {
        let store = MemoryDeviceStateStore()
        #expect(try store.load() == nil)
    }

    @Test func theBackendIsConfiguredOnLoopback() {
        let configuration = BackendConfiguration(seed: "consumer")
        #expect(configuration.host == "127.0.0.1" && configuration.seed == "consumer")
    }
}
