import Testing

@testable import WorkbenchTesting

/// The record mode a test runs in when it names none, from the environment.
@Suite struct CassetteRecordModeTests {
    @Test func missingByDefault() throws {
        #expect(try CassetteRecordMode.fromEnvironment([:]) == .missing)
        #expect(try CassetteRecordMode.fromEnvironment(["CI": ""]) == .missing)
        #expect(try CassetteRecordMode.fromEnvironment(["MPIN_WORKBENCH_RECORD": ""]) == .missing)
    }

    @Test func neverOnCI() throws {
        #expect(try CassetteRecordMode.fromEnvironment(["CI": "true"]) == .never)
        #expect(try CassetteRecordMode.fromEnvironment(["CI": "1", "MPIN_WORKBENCH_RECORD": ""]) == .never)
    }

    @Test(arguments: ["never", "missing", "all"])
    func theVariableOverridesTheDefault(_ name: String) throws {
        let mode = try CassetteRecordMode.fromEnvironment(["MPIN_WORKBENCH_RECORD": name])
        #expect(mode.rawValue == name)
        #expect(try CassetteRecordMode.fromEnvironment(["MPIN_WORKBENCH_RECORD": name, "CI": "true"]) == mode)
    }

    @Test(arguments: ["sometimes", "ALL", " all", "all\n", "none"])
    func anUnknownValueNamesTheVariableAndTheAllowedValues(_ value: String) throws {
        let error = #expect(throws: CassetteTestError.self) {
            try CassetteRecordMode.fromEnvironment(["MPIN_WORKBENCH_RECORD": value, "CI": "true"])
        }
        let message = try #require(error).message
        #expect(message.hasPrefix("MPIN_WORKBENCH_RECORD=\""))
        #expect(message.hasSuffix("is not a record mode; use one of never, missing, all, failed"))
    }

    @Test func aControlCharacterIsShownEscaped() throws {
        let error = #expect(throws: CassetteTestError.self) {
            try CassetteRecordMode.fromEnvironment(["MPIN_WORKBENCH_RECORD": "all\n"])
        }
        #expect(error?.message.hasPrefix("MPIN_WORKBENCH_RECORD=\"all\\u{a}\" is not") == true)
    }

    @Test func namesParse() {
        #expect(CassetteRecordMode(rawValue: "all") == .all)
        #expect(CassetteRecordMode(rawValue: "missing") == .missing)
        #expect(CassetteRecordMode(rawValue: "never") == .never)
        #expect(CassetteRecordMode(rawValue: "once") == nil)
        #expect(CassetteRecordMode.all.description == "all")
    }
}
