import FlowRecording
import Testing

@testable import Scenarios

/// What a harness's suite needs of the script language: `checks: continue`, `variables`, a step's
/// `context`, `!NAME` statuses and the `tamper:N` filter.
@Suite struct HarnessScriptTests {
    @Test func checksVariablesAndContextParse() throws {
        let script = try ScriptParser.parse(
            """
            name: s
            checks: continue
            variables: {user: testUser, pin: "1234"}
            steps:
              - sdk: startRegistration
                context: "${user}--@${test}"
            """, file: "s.yaml")
        #expect(script.checks == .continue)
        #expect(
            script.variables.map(\.name) == ["user", "pin"] && script.variables.map(\.value) == ["testUser", "1234"])
        #expect(script.steps[0].context == "${user}--@${test}")
        #expect(try ScriptParser.parse("steps: [{sdk: listUsers}]", file: "d.yaml").checks == .stop)
    }

    @Test(arguments: [
        ("checks: maybe\nsteps: [{sdk: listUsers}]", "checks \"maybe\" is not stop or continue"),
        ("variables: [a]\nsteps: [{sdk: listUsers}]", "\"variables\" should be a mapping"),
        ("variables: {a-b: 1}\nsteps: [{sdk: listUsers}]", "\"a-b\" is not a variable name"),
        ("variables: {a: [1]}\nsteps: [{sdk: listUsers}]", "variable a should be a single value"),
        ("steps: [{sdk: listUsers, context: {a: 1}}]", "\"context\" should be a single value"),
    ])
    func badHarnessKeysAreNamed(text: String, message: String) {
        do {
            _ = try ScriptParser.parse(text, file: "bad.yaml")
            Issue.record("parsed: \(text)")
        } catch {
            #expect(error.description.contains(message), "\(error)")
        }
    }

    @Test func tamperAtAPlaceSpoilsThatDigit() throws {
        let variables = Variables(["an": "6418791", "nine": "1239", "word": "12a4"])
        #expect(try variables.expand("${an|tamper:4}").get() == "6419791")
        #expect(try variables.expand("${nine|tamper:4}").get() == "1230")
        #expect(try variables.expand("${an|tamper}").get() == "6418792")
        for bad in ["${an|tamper:0}", "${an|tamper:8}", "${an|tamper:x}", "${word|tamper:3}"] {
            guard case .failure(let error) = variables.expand(bad) else {
                Issue.record("\(bad) expanded")
                continue
            }
            #expect(error.description.contains("needs a digit at that place"), "\(error)")
        }
        #expect((try? Variables(["e": ""]).expand("${e|tamper:1}").get()) == nil)
    }
}
