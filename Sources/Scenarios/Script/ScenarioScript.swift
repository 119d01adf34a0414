import FlowRecording
import MPinSDK
import MilagroProtocol
import OrderedJSON

/// A parsed scenario script: the steps of one flow with their arguments and expectations.
///
/// Scripts are YAML (or JSON) files; the language is described in docs/scenarios.md ("Scenarios").
/// `ScriptParser` builds this value and checks every step against `ScriptAction.catalog`, so a
/// script that parses also names only known actions and arguments.
public struct ScenarioScript: Sendable {
    /// The scenario's name (the `name` key, else the file name without extension).
    public var name: String
    public var description: String
    /// The file the script came from, as given.
    public var path: String?
    /// `milagro` or `mfa-platform`: the SDK flavour, and the embedded backend's flavour.
    public var flavour: BackendFlavour
    /// `auto`, `email` or `code`: how the embedded backend activates registrations.
    public var activation: ActivationMode
    /// `default`, `milagro-oss` or `milagro-hosted-v3`: whose answers the embedded backend gives
    /// (the workbench's, the open-source Milagro server's as measured, docs/protocol.md §13, or those of
    /// the backend of the C++ SDK core's recorded unit tests).
    public var profile: BackendProfile = .default
    /// The client id the MFA-platform embedded backend insists on, if any.
    public var clientID: String?
    /// The embedded backend's (and the SDK's) frozen clock at the start, ms since 1970.
    public var startTime: Int64
    /// The seed used when `record` is given none.
    public var seed: String?
    /// Other names the scenario answers to (names of upstream tests, ...).
    public var aliases: [String]
    /// What an unmet expectation does (`checks:`).
    public var checks: Checks = .stop
    /// The script's own variables and their values (`variables:`), set before the first step.
    public var variables: [(name: String, value: String)] = []
    public var steps: [ScriptStep]
    /// The script as a JSON value, for the cassette (every scalar as a string).
    public var source: JSONValue

    /// 2026-01-01T00:00:00Z, the default frozen time of embedded recordings.
    public static let defaultStartTime: Int64 = 1_767_225_600_000

    /// What an unmet expectation does.
    public enum Checks: String, Sendable, CaseIterable, Hashable {
        /// The first unmet expectation ends the run.
        case stop
        /// The run goes on and every unmet expectation is reported at its end, as a harness's
        /// non-fatal checks are (`BOOST_CHECK` in the Milagro SDK core's `tests/unit_tests.cpp`).
        case `continue`
    }
}

/// One step: who acts, what it does, with which arguments, and what must come out.
public struct ScriptStep: Sendable {
    /// 0-based position in the script.
    public var index: Int
    public var name: String
    /// What the step does: an actor's action, or waiting for a background step.
    public var kind: Kind
    /// The name under which the step runs in the background (`background: NAME`), if it does: the
    /// steps after it start once it has finished or is held by the server, and a later
    /// `await: NAME` waits for it, checks its expectations and takes its captures.
    public var background: String? = nil
    /// Arguments in script order; values may hold `$variables`.
    public var arguments: [(name: String, value: String)]
    public var expect: Expectation
    /// `variable: output` pairs: after the step, `$variable` holds the output's value.
    public var capture: [(variable: String, output: String)]
    /// Line of the step in its file (1-based).
    public var line: Int
    /// The request context of the step's HTTP exchanges (`context:`, may hold `$variables`): written
    /// into each exchange when recording, and the key a replay in mode `context` looks them up by
    /// (`ExchangeContext`).
    public var context: String? = nil

    /// What a step does.
    public enum Kind: Sendable, Hashable {
        /// An actor's action.
        case action(StepAction)
        /// Waits for the background step of this name (`await: NAME`).
        case await(String)
    }

    /// `sdk`, `browser`, `admin`, `clock` or `device`; `await` for a step that waits for a
    /// background step.
    public var actor: String {
        switch kind {
        case .action(let action): action.actor.rawValue
        case .await: ScriptStep.awaitKey
        }
    }

    /// The action (`startRegistration`, `getAccessNumber`, `wait`, ...); for `await`, the name of
    /// the background step awaited.
    public var action: String {
        switch kind {
        case .action(let action): action.name
        case .await(let lane): lane
        }
    }

    /// The step's action, nil for an await step.
    public var stepAction: StepAction? {
        if case .action(let action) = kind { return action }
        return nil
    }

    public func argument(_ name: String) -> String? { arguments.last { $0.name == name }?.value }

    /// Whether the step waits for a background step.
    public var isAwait: Bool {
        if case .await = kind { return true }
        return false
    }

    /// The step key of a step that waits for a background step.
    public static let awaitKey = "await"
    /// The step key that runs a step in the background.
    public static let backgroundKey = "background"

    public var scenarioStep: ScenarioStep { ScenarioStep(index: index, name: name) }
}

/// What a step must produce.
public struct Expectation: Sendable {
    /// SDK steps: a status name (`OK` when not given). Browser and admin steps: the HTTP status
    /// (`200` when not given). `any` accepts every status; `!NAME` every status but NAME.
    public var status: String?
    /// SDK steps: the user's state after the call (`REGISTERED`, `BLOCKED`, ...).
    public var state: UserState?
    /// Outputs that must have these values (`name: value`; `name#count` is the number of outputs
    /// of that name).
    public var values: [(name: String, value: String)]
    /// Line of the `expect` key, for failure messages.
    public var line: Int?

    public init(
        status: String? = nil, state: UserState? = nil, values: [(name: String, value: String)] = [], line: Int? = nil
    ) {
        self.status = status
        self.state = state
        self.values = values
        self.line = line
    }
}
