import Scenarios
import Testing

/// Script errors name the file, the line and the step.
@Suite struct ScriptParserTests {
    func error(_ text: String) -> ScriptError? {
        do {
            _ = try ScriptParser.parse(text, file: "Scenarios/broken.yaml")
            Issue.record("the script parsed but should not have")
            return nil
        } catch {
            return error
        }
    }

    @Test func parsesStepsWithArgumentsExpectationsAndCaptures() throws {
        let script = try ScriptParser.parse(
            """
            name: an-login
            steps:
              - sdk: initialize
                with: {backend: $backend}
              - name: browser shows a number
                browser: getAccessNumber
                capture: {an: accessNumber}
              - sdk: finishAuthenticationAN
                with: {user: alice, pin: "0042", accessNumber: $an}
                expect: {status: INCORRECT_PIN, state: REGISTERED, values: {n#count: 0}}
            """, file: "x.yaml")
        #expect(script.name == "an-login" && script.steps.count == 3)
        #expect(script.steps[0].name == "sdk initialize")
        #expect(script.steps[1].capture.first?.variable == "an")
        #expect(script.steps[2].argument("pin") == "0042")
        #expect(script.steps[2].expect.status == "INCORRECT_PIN" && script.steps[2].line == 8)
    }

    /// A body given as a mapping is sent with sorted keys, the order a cassette's copy of the script
    /// has, so a replay from that copy sends the same bytes; a string body is sent as written.
    @Test func mappingBodiesHaveSortedKeys() throws {
        let script = try ScriptParser.parse(
            """
            name: bodies
            steps:
              - browser: request
                with: {path: /x, body: {zeta: 1, alpha: {b: 2, a: [{d: 4, c: 3}]}}}
              - browser: request
                with: {path: /x, body: '{"zeta":1,"alpha":2}'}
            """, file: "x.yaml")
        #expect(script.steps[0].argument("body") == #"{"alpha": {"a": [{"c": "3", "d": "4"}], "b": "2"}, "zeta": "1"}"#)
        #expect(script.steps[1].argument("body") == #"{"zeta":1,"alpha":2}"#)
    }

    @Test func unknownArgumentNamesFileLineAndStep() throws {
        let failure = try #require(
            error(
                """
                name: x
                steps:
                  - sdk: makeNewUser
                    with: {id: alice}
                  - name: finish registration
                    sdk: finishRegistration
                    with:
                      pn: "1234"
                """))
        #expect(failure.file == "Scenarios/broken.yaml" && failure.line == 8 && failure.stepIndex == 1)
        #expect(
            failure.description.hasPrefix(
                "Scenarios/broken.yaml:8:7: step 1 \"finish registration\": finishRegistration takes no argument \"pn\""
            ))
    }

    @Test func unknownActionMissingArgumentAndBadYAML() throws {
        let action = try #require(error("steps:\n  - sdk: fly\n"))
        #expect(action.line == 2 && action.stepIndex == 0 && action.message.hasPrefix("unknown sdk action \"fly\""))
        let missing = try #require(
            error("steps:\n  - sdk: makeNewUser\n    with: {id: a}\n  - sdk: finishRegistration\n    with: {user: a}\n")
        )
        #expect(missing.stepIndex == 1 && missing.message == "finishRegistration needs the argument \"pin\"")
        let yaml = try #require(error("steps:\n  - sdk: [unclosed\n"))
        #expect(yaml.line != nil && yaml.message.hasPrefix("not valid YAML"))
        let actors = try #require(error("steps:\n  - sdk: destroy\n    browser: getQrUrl\n"))
        #expect(actors.message.contains("several actors"))
        let top = try #require(error("name: x\nstep: []\n"))
        #expect(top.line == 2 && top.message.hasPrefix("unknown key \"step\""))
    }

    @Test func jsonScriptsAreAccepted() throws {
        let script = try ScriptParser.parse(
            #"{"name": "j", "steps": [{"sdk": "initialize"}, {"clock": "wait", "with": {"seconds": 5}}]}"#,
            file: "j.json")
        #expect(script.steps.map(\.action) == ["initialize", "wait"])
    }

    @Test func variablesAndFilters() throws {
        let variables = Variables(["an": "1234567", "qr": "http://h:1#abc"])
        #expect(
            try variables.expand("$an/${an|tamper}/${qr|fragment}/${qr|origin}/$$").get()
                == "1234567/1234568/abc/http://h:1/$")
        #expect(throws: VariableError.self) { try variables.expand("$nope").get() }
    }
}
