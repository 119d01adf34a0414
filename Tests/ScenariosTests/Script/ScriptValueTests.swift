import FlowRecording
import MPinSDK
import Scenarios
import Testing

/// Script values the code has types for are parsed into them when the script is loaded: a
/// misspelt flavour, activation, profile, checks mode, action or state is a load error naming its
/// line, with the nearest known value.
@Suite struct ScriptValueTests {
    func error(_ text: String) -> ScriptError? {
        do {
            _ = try ScriptParser.parse(text, file: "Scenarios/typo.yaml")
            Issue.record("the script parsed but should not have")
            return nil
        } catch {
            return error
        }
    }

    @Test func valuesBecomeTypes() throws {
        let script = try ScriptParser.parse(
            """
            flavour: mfa-platform
            activation: code
            checks: continue
            steps:
              - sdk: makeNewUser
                with: {id: a}
                expect: {state: INVALID}
              - browser: getQrUrl
            """, file: "t.yaml")
        #expect(
            script.flavour == .mfaPlatform && script.activation == .code && script.profile == .default
                && script.checks == .continue)
        #expect(script.steps.map(\.kind) == [.action(.sdk(.makeNewUser)), .action(.browser(.getQrUrl))])
        #expect(script.steps[0].expect.state == .invalid)
        #expect(
            script.steps.map(\.actor) == ["sdk", "browser"]
                && script.steps.map(\.action) == ["makeNewUser", "getQrUrl"])
        let defaults = try ScriptParser.parse("steps: [{sdk: listUsers}]", file: "d.yaml")
        #expect(
            defaults.flavour == .milagro && defaults.activation == .auto && defaults.profile == .default
                && defaults.checks == .stop)
    }

    @Test(arguments: [
        (
            "name: x\nflavour: milagr\nsteps: []\n", 2,
            "flavour \"milagr\" is not milagro or mfa-platform; did you mean milagro?"
        ),
        (
            "flavour: MFA-Platform\nsteps: []\n", 1,
            "flavour \"MFA-Platform\" is not milagro or mfa-platform; did you mean mfa-platform?"
        ),
        (
            "name: x\n\nactivation: emial\nsteps: []\n", 3,
            "activation \"emial\" is not auto, email or code; did you mean email?"
        ),
        (
            "profile: milagro-os\nsteps: []\n", 1,
            "profile \"milagro-os\" is not default, milagro-oss or milagro-hosted-v3; did you mean milagro-oss?"
        ),
        ("checks: contnue\nsteps: []\n", 1, "checks \"contnue\" is not stop or continue; did you mean continue?"),
        ("profile: python2\nsteps: []\n", 1, "profile \"python2\" is not default, milagro-oss or milagro-hosted-v3"),
    ])
    func aMisspeltTopValueIsALoadErrorWithItsLine(text: String, line: Int, message: String) throws {
        let failure = try #require(error(text))
        #expect(failure.line == line && failure.message == message, "\(failure)")
    }

    @Test func aMisspeltStateIsALoadErrorWithItsLineAndASuggestion() throws {
        let failure = try #require(
            error(
                """
                steps:
                  - sdk: makeNewUser
                    with: {id: a}
                  - sdk: startRegistration
                    expect:
                      state: STARTED_REGISTRATON
                """))
        #expect(failure.line == 6 && failure.stepIndex == 1, "\(failure)")
        #expect(
            failure.message
                == "state \"STARTED_REGISTRATON\" is not a user state (INVALID, STARTED_REGISTRATION, ACTIVATED, "
                + "REGISTERED or BLOCKED); did you mean STARTED_REGISTRATION?", "\(failure)")
        let lower = try #require(error("steps:\n  - sdk: listUsers\n    expect: {state: registered}\n"))
        #expect(lower.line == 3 && lower.message.hasSuffix("did you mean REGISTERED?"), "\(lower)")
        let far = try #require(error("steps:\n  - sdk: listUsers\n    expect: {state: none}\n"))
        #expect(!far.message.contains("did you mean"), "\(far)")
    }

    @Test func aMisspeltActionIsALoadErrorWithItsLineAndASuggestion() throws {
        let sdk = try #require(error("name: x\nsteps:\n  - sdk: initialize\n  - sdk: startRegistraton\n"))
        #expect(sdk.line == 4 && sdk.stepIndex == 1)
        #expect(sdk.message.hasPrefix("unknown sdk action \"startRegistraton\"; known: initialize, destroy"))
        #expect(sdk.message.hasSuffix(", clientParameter; did you mean startRegistration?"), "\(sdk)")
        let browser = try #require(error("steps:\n  - browser: getQrURL\n"))
        #expect(
            browser.message.hasPrefix("unknown browser action \"getQrURL\"; known: ")
                && browser.message.hasSuffix("; did you mean getQrUrl?"),
            "\(browser)")
        let device = try #require(error("steps:\n  - device: registerDevise\n    with: {mvSessionID: s}\n"))
        #expect(device.line == 2 && device.message.contains("did you mean registerDevice?"), "\(device)")
        let far = try #require(error("steps:\n  - sdk: fly\n"))
        #expect(!far.message.contains("did you mean"), "\(far)")
    }

    @Test func misspeltKeysAndArgumentsGetASuggestion() throws {
        let top = try #require(error("name: x\nflavor: milagro\nsteps: []\n"))
        #expect(
            top.line == 2 && top.message.hasPrefix("unknown key \"flavor\"; expected one of ")
                && top.message.hasSuffix("; did you mean flavour?"),
            "\(top)")
        let actor = try #require(error("steps:\n  - sdkk: listUsers\n"))
        #expect(
            actor.message.hasPrefix("unknown key \"sdkk\"; a step has one of ")
                && actor.message.hasSuffix("; did you mean sdk?"), "\(actor)")
        let argument = try #require(error("steps:\n  - sdk: makeNewUser\n    with: {idd: a}\n"))
        #expect(
            argument.message == "makeNewUser takes no argument \"idd\"; it takes deviceName, id; did you mean id?",
            "\(argument)")
        let expectation = try #require(error("steps:\n  - sdk: listUsers\n    expect: {valeus: {a: b}}\n"))
        #expect(
            expectation.message
                == "unknown expectation \"valeus\"; expected status, state or values; did you mean values?",
            "\(expectation)")
    }

    @Test func aProfileThatCannotPlayTheFlavourIsALoadError() throws {
        let failure = try #require(error("flavour: mfa-platform\nprofile: milagro-oss\nsteps: []\n"))
        #expect(
            failure.line == 2
                && failure.message == BackendProfile.milagroOSS.problem(flavour: .mfaPlatform, activation: .auto))
    }

    /// The catalog is the action enum's: every action once, with its actor, in declaration order.
    @Test func theCatalogIsTheActionTable() {
        #expect(ScriptAction.catalog.map(\.action) == StepAction.all)
        #expect(Set(StepAction.all).count == StepAction.all.count)
        for action in StepAction.all {
            #expect(StepAction(actor: action.actor, name: action.name) == action)
            #expect(ScriptAction.find(actor: action.actor.rawValue, name: action.name)?.action == action)
        }
        #expect(ScriptAction.names(for: "clock") == ["wait"])
        #expect(ScriptAction.find(actor: "sdk", name: "finishRegistration")?.required == ["pin"])
    }

    @Test func suggestionsAreNearNamesOnly() {
        #expect(NameSuggestion.closest(to: "REGISTERD", among: ["REGISTERED", "BLOCKED"]) == "REGISTERED")
        #expect(NameSuggestion.closest(to: "xyz", among: ["REGISTERED", "BLOCKED"]) == nil)
        #expect(NameSuggestion.closest(to: String(repeating: "a", count: 100_000), among: ["a"]) == nil)
        #expect(NameSuggestion.hint(for: "wiat", among: ["wait"]) == "; did you mean wait?")
    }
}
