import OrderedJSON
import Testing

@testable import LegacyImport

/// `LegacySuite.binding(of:requests:)` on a suite written here: a backend step takes the backend of
/// its own settings request, and a variable no request shows is listed with why and the default.
@Suite struct LegacySuiteBindingTests {
    static func step(_ name: String, _ members: [(String, JSONValue)]) -> JSONValue {
        .object([.init("name", .string(name))] + members.map { JSONValue.Member($0.0, $0.1) })
    }

    static let suite = LegacySuite(
        name: "s", settings: [.init("variables", .object([.init("pin", "1234"), .init("user", "u")]))],
        tests: [
            .init(
                name: "testBackend",
                steps: [
                    step(
                        "testBackend: other",
                        [("sdk", "testBackend"), ("with", .object([.init("url", "$other")])), ("context", "@${test}")]),
                    step(
                        "testBackend: unreachable",
                        [("sdk", "testBackend"), ("with", .object([.init("url", "$gone")])), ("context", "@${test}")]),
                    step(
                        "testBackend: back", [("sdk", "setBackend"), ("with", .object([.init("url", "$backend")]))]),
                ]),
            .init(
                name: "testRegister1",
                steps: [
                    step(
                        "testRegister1: StartRegistration",
                        [
                            ("sdk", "startRegistration"), ("with", .object([.init("user", "$user")])),
                            ("context", "${user}--@${test}"),
                        ]),
                    step(
                        "testRegister1: FinishRegistration",
                        [
                            ("sdk", "finishRegistration"),
                            ("with", .object([.init("user", "$user"), .init("pin", "$pin")])),
                        ]),
                ]),
        ])

    /// The other backend is the main one, and the unreachable one got no answer: each step takes
    /// the URL it asked, in its order; a step without a context made no request.
    @Test func aBackendStepTakesTheBackendOfItsOwnSettingsRequest() {
        let main = "http://127.0.0.1:8005"
        let binding = Self.suite.binding(
            of: "testBackend",
            requests: [
                .init(method: "GET", url: main + "/rps/clientSettings", context: "@testBackend"),
                .init(method: "GET", url: "https://gone.example/base/rps/clientSettings", context: "@testBackend"),
            ])
        #expect(binding.values == ["test": "testBackend", "other": main, "gone": "https://gone.example/base"])
        #expect(binding.unbound.isEmpty)

        let one = Self.suite.binding(
            of: "testBackend",
            requests: [.init(method: "GET", url: main + "/rps/clientSettings", context: "@testBackend")])
        #expect(one.values["other"] == main)
        #expect(one.unbound.map(\.variable) == ["gone"])
        #expect(one.unbound.first?.fallback == nil)
        #expect(
            one.unbound.first?.reason.contains(
                "the recording holds no client-settings request of testBackend for the step \"testBackend: unreachable\""
            )
                == true, "\(one.unbound)")
    }

    /// FinishRegistration sends nothing: the PIN of a test that never logs in keeps the default,
    /// listed with why; the user its registration's context shows is bound.
    @Test func aVariableNoRequestShowsIsListedWithTheDefault() {
        let binding = Self.suite.binding(
            of: "testRegister1",
            requests: [.init(method: "PUT", url: "http://127.0.0.1:8005/rps/user", context: "bob--@testRegister1")])
        #expect(binding.values == ["test": "testRegister1", "user": "bob"])
        #expect(binding.unbound.count == 1)
        let pin = binding.unbound[0]
        #expect(pin.variable == "pin" && pin.test == "testRegister1" && pin.fallback == "1234")
        #expect(
            pin.description
                == "$pin of testRegister1: no request of testRegister1 shows it: it appears only in the step "
                + "\"testRegister1: FinishRegistration\", which names it in no request context; the suite's default "
                + "\"1234\" is used")
        // Nothing recorded: the user is not shown either, and its step's context is named.
        let none = Self.suite.binding(of: "testRegister1", requests: [])
        #expect(none.unbound.map(\.variable) == ["user", "pin"])
        #expect(none.unbound[0].reason.contains("matches the context \"${user}--@${test}\""), "\(none.unbound)")
    }
}
