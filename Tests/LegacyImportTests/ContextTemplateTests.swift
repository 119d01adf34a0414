import Testing

@testable import LegacyImport
@testable import Scenarios

/// Matching a suite step's context template against a recorded context binds the run's values.
@Suite struct ContextTemplateTests {
    @Test func freeVariablesBindToTheRecordedValues() {
        let template = ContextTemplate("${user}-${pin}@${test}SecondAuth")
        #expect(template.variables == ["user", "pin", "test"])
        let bound = template.match(
            "bob-smith-9876@testAuthenticate1SecondAuth", bound: ["test": "testAuthenticate1"], wildcards: [])
        // The shortest value that lets the rest match: the user is "bob", the PIN "smith-9876"; a
        // user id with a dash is bound by the step that has it alone (StartRegistration's "${user}--@…").
        #expect(bound == ["test": "testAuthenticate1", "user": "bob", "pin": "smith-9876"])
        let known = template.match(
            "bob-smith-9876@testAuthenticate1SecondAuth", bound: ["test": "testAuthenticate1", "user": "bob-smith"],
            wildcards: [])
        #expect(known?["pin"] == "9876")
    }

    @Test func boundValuesMustAgreeAndLiteralsMustMatch() {
        let template = ContextTemplate("${user}-${pin}@${test}")
        #expect(
            template.match("alice-1234@testAuthenticate2", bound: ["test": "testAuthenticate1"], wildcards: []) == nil)
        #expect(
            template.match(
                "alice-1234@testAuthenticate1SecondAuth", bound: ["test": "testAuthenticate1"], wildcards: []) == nil)
        #expect(
            template.match(
                "alice-1234@testAuthenticate1", bound: ["test": "testAuthenticate1", "pin": "1235"], wildcards: [])
                == nil)
        #expect(
            ContextTemplate("${user}--@${test}").match(
                "--@testRegister3", bound: ["test": "testRegister3"], wildcards: [])?["user"] == "")
    }

    @Test func runVariablesAndFilteredOnesMatchAnythingAndBindNothing() {
        let template = ContextTemplate("${user}-${pin}-${an|tamper:4}@${test}")
        #expect(template.parts.contains(.variable("an", filtered: true, source: "${an|tamper:4}")))
        let bound = template.match(
            "testUser-1234-6419791@testAuthenticateAN2", bound: ["test": "testAuthenticateAN2"], wildcards: [])
        #expect(bound == ["test": "testAuthenticateAN2", "user": "testUser", "pin": "1234"])
        let wild = ContextTemplate("${user}-${an}@t").match("u-4241703@t", bound: ["user": "u"], wildcards: ["an"])
        #expect(wild == ["user": "u"])
    }

    @Test func dollarsAndLongContextsAreHandled() {
        #expect(ContextTemplate("a$$b").parts == [.text("a$b", source: "a$$b")])
        #expect(ContextTemplate("price $").parts == [.text("price $", source: "price $")])
        // Substitution keeps everything it does not bind as written.
        #expect(
            LegacySuite.substitute("${user}-$$-${an|tamper:4}-$pin-$other", ["user": "a$b", "pin": "1", "an": "9"])
                == "a$$b-$$-${an|tamper:4}-1-$other")
        let long = String(repeating: "-", count: ContextTemplate.maximumContextLength + 1)
        #expect(ContextTemplate("${a}-${b}").match(long, bound: [:], wildcards: []) == nil)
        // Many splits to try: the budget ends the search instead of the clock.
        let dashes = String(repeating: "-", count: 1_000)
        #expect(ContextTemplate("${a}-${b}-${c}-${d}x").match(dashes, bound: [:], wildcards: []) == nil)
    }
}
