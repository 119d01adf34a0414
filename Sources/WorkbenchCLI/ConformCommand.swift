import ArgumentParser
import CommonFormats
import Conformance
import CurlTransport
import FileAccess
import FlowRecording
import MilagroRecording
import SDKSeams

/// `mpin-workbench conform --backend URL`: grades a backend against the protocol, case by case
/// (docs/conformance.md). Exit status 1 when a MUST case fails, 2 on a usage error or when it
/// could not grade (the backend cannot be reached, the deadline passed, no case was graded).
struct ConformCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "conform",
        abstract: "Grade an M-Pin backend: a suite of protocol cases with verdicts, cassettes and reports.",
        discussion: """
            Runs the conformance cases against the backend, one after the other, each recorded as \
            a cassette (--out). Verdicts: pass, non-strict, fail, informational, unimplemented, \
            skipped. Users are created with the prefix conform-<random>-; cases that need an \
            operator action use the backend's /admin endpoints when it has them. Slow cases (that \
            wait on the backend's timers) run only with --slow. See docs/conformance.md.

            The backend is not trusted. Requests go only to its origin and those given with \
            --allow-origin: a URL of its client settings (or of an answer) on another origin is not \
            followed, and the case fails saying which setting and URL. An answer body over --max-body \
            bytes (default 16 MiB) is cut off as it arrives and fails its case, as does one a cassette \
            cannot hold (more than 1000 header fields, a field name that is not a token, ...) or one \
            that would take the run's cassettes past 160 MiB. Each request has --timeout seconds \
            (default 30), and the whole run --deadline seconds (default 300): once it has passed, no \
            case starts and the one under way is skipped. The cassettes (--out) and the JSON and \
            HTML reports have the Milagro secrets redacted (--redact default) unless --redact none.

            Exit status: 0 when no MUST case failed, 1 when one did, 2 on a usage error or when it \
            could not grade: the backend cannot be reached, the deadline passed, or every case was \
            skipped.

            With --client, it grades a client instead: for each client case it starts the reference \
            backend on 127.0.0.1 with the case's fault (--profile chooses whose answers) and runs the \
            client through a driver, once or several times: --client builtin (the workbench's SDK) \
            or --client -- COMMAND [ARG...], run without a shell by the driver contract \
            (docs/conformance.md). Exit status 1 when a MUST case fails, 2 when the client could not \
            be run. serve --fault CASE-ID serves one case's backend by hand.

            Examples:
              mpin-workbench serve --port 8005 &
              mpin-workbench conform --backend http://127.0.0.1:8005
              mpin-workbench conform --backend http://127.0.0.1:8005 \\
                  --cases 'pass2.*,pin.*' --rate 5 --html report.html
              mpin-workbench conform --backend http://127.0.0.1:8005 --json > report.json
              mpin-workbench conform --backend http://127.0.0.1:8005 --list
              mpin-workbench conform --backend http://127.0.0.1:8005 \\
                  --allow-origin http://127.0.0.1:8001 --deadline 600
              mpin-workbench conform --client builtin --html client.html
              mpin-workbench conform --client --profile milagro-oss -- \\
                  python3 Examples/ClientDriver/mpin_driver.py
            """)

    @Option(help: "The backend's base URL (e.g. http://127.0.0.1:8005); or --client to grade a client.")
    var backend: String?

    @OptionGroup var clientMode: ConformClientOptions

    @Option(help: "The cases to run: comma-separated globs over case ids (e.g. 'pass2.*,pin.*'); all by default.")
    var cases: String?

    @Option(help: "At most N requests per second (a fraction is allowed).")
    var rate: Double?

    @Option(help: "The most requests of the whole run.")
    var budget = 5_000

    @Option(help: "Write each case's cassette into DIR as <case id>.json.")
    var out: String?

    @Option(help: "Write a JUnit XML report to FILE.")
    var junit: String?

    @Flag(help: "Print the JSON report on standard output in place of the summary (as bench --json does).")
    var json = false

    @Option(help: "Write the self-contained HTML report to FILE.")
    var html: String?

    @Option(help: "An activation code, for a backend that wants one to register a user.")
    var activationCode: String?

    @Option(help: "The MFA platform's client id, sent as X-MIRACL-CID on every request.")
    var clientID: String?

    @Option(
        help:
            "The MFA platform: the OIDC authorize URL that gives a registration its access code (default: the backend's /authorize for --client-id)."
    )
    var authorizeURL: String?

    @Option(help: "The RPS prefix of the client settings' URL.")
    var rpsPrefix = "rps"

    @Flag(help: "Also run the slow cases (they wait on the backend's timers, up to 20 s each).")
    var slow = false

    @Flag(help: "List every case's verdict, not only those that did not pass.")
    var verbose = false

    @Flag(help: "List the selected cases without running them.")
    var list = false

    @Option(
        name: .customLong("allow-origin"),
        help: ArgumentHelp(
            "Another origin requests may go to (such as http://127.0.0.1:8001, where the client settings put D-TA 2); repeatable.",
            valueName: "origin"))
    var allowedOrigins: [String] = []

    @Option(
        name: .customLong("max-body"), parsing: .unconditional,
        help: "The largest answer body taken, in bytes, 1 to 16777216 (default 16 MiB); a larger one fails its case.",
        transform: BoundedNumber.integer(1...RecordingProxy.defaultMaximumBodySize))
    var maxBody = RecordingProxy.defaultMaximumBodySize

    @Option(
        parsing: .unconditional,
        help: "Time limit of one request in seconds, more than 0 and at most 3600 (default 30).",
        transform: BoundedNumber.decimal(0...3_600, aboveLowerBound: true, unit: "seconds"))
    var timeout = 30.0

    @Option(
        parsing: .unconditional,
        help:
            "Time limit of the whole run in seconds, more than 0 and at most 86400 (default 300); when it passes, exit status 2.",
        transform: BoundedNumber.decimal(0...86_400, aboveLowerBound: true, unit: "seconds"))
    var deadline = 300.0

    @Option(
        parsing: .upToNextOption,
        help:
            "Fields to redact in the cassettes and reports: 'default' (PIN, tokens, shares, SEC, x and the random draws, OTTs, OTPs, codes, ...), 'none', or field names (default: 'default')."
    )
    var redact: [String] = []

    func validate() throws {
        if let cases, CasePattern(cases) == nil {
            throw ValidationError("--cases '\(cases)' is empty or has an empty glob")
        }
        if let rate, !(rate > 0 && rate <= 10_000) {
            throw ValidationError("--rate must be more than 0 and at most 10000, not \(rate)")
        }
        if !(1...1_000_000).contains(budget) { throw ValidationError("--budget must be 1 to 1000000, not \(budget)") }
        if try clientMode.validate(backend: backend) { return }
        guard let backend, backend.hasPrefix("http://") || backend.hasPrefix("https://") else {
            throw ValidationError("--backend must be an http:// or https:// URL, not '\(backend ?? "")' (or --client)")
        }
        for origin in allowedOrigins where URLText.origin(origin) == nil {
            throw ValidationError(
                "--allow-origin is an origin such as http://127.0.0.1:8001 (http or https, a host, no path), got \"\(origin)\"."
            )
        }
        if redact.contains("none"), redact.count > 1 {
            throw ValidationError(
                "--redact none redacts nothing; it cannot go with \(redact.filter { $0 != "none" }.joined(separator: ", "))."
            )
        }
    }

    /// The fields `--redact` names: the Milagro secrets unless told otherwise (`record`'s rule,
    /// with `default` as the default whatever the backend).
    var redactedFields: [String] {
        Redactor.milagroFields(for: redact.isEmpty ? ["default"] : redact, live: nil)
    }

    func run() async throws {
        if clientMode.isClient { return try await ConformClientRun(command: self).run() }
        let backend = self.backend ?? ""
        var options = ConformanceSuite.Options(backendURL: backend)
        options.rpsPrefix = rpsPrefix
        options.pattern = cases.flatMap(CasePattern.init)
        options.rate = rate
        options.budget = budget
        options.includeSlow = slow
        options.activationCode = activationCode
        options.clientID = clientID
        options.authorizeURL = authorizeURL
        options.tool = WorkbenchVersion.tool
        options.allowedOrigins = allowedOrigins
        options.maximumBodySize = maxBody
        options.requestTimeout = timeout
        options.deadline = deadline
        options.redactedFields = redactedFields
        // The transport stops reading one byte past the cap, so an endless answer is cut off as it comes.
        let transport = CurlTransport(
            options: .init(defaultTimeout: timeout, connectTimeout: min(timeout, 10), maximumResponseBody: maxBody))
        let suite = ConformanceSuite(
            options: options, transport: transport,
            random: SystemRandomSource(), sdkClock: SystemClock(), clock: SystemConformanceClock())
        if suite.selected.isEmpty {
            throw CommandFailure("--cases '\(cases ?? "")' selects no case")
        }
        if list {
            for item in suite.selected { Console.out("\(item.level.rawValue)\t\(item.id)\t\(item.title)\n") }
            return
        }
        if let error = await suite.probe() {
            throw CommandFailure("the backend at \(backend) cannot be reached: \(error)")
        }
        var report = await suite.run { result in
            Console.error("\(result.verdict.kind.rawValue) \(result.id)\n")
        }
        do {
            if let out { report = try report.writingCassettes(to: out) }
            if let junit { try AtomicFile.write(Array(report.junitXML.utf8), to: junit) }
            if let html { try AtomicFile.write(Array(report.html.utf8), to: html) }
        } catch {
            throw CommandFailure("\(error)")
        }
        Console.out(json ? report.jsonText + "\n" : report.terminalSummary(verbose: verbose))
        if let reason = report.couldNotGrade {
            throw CommandFailure("could not grade the backend at \(backend): \(reason)")
        }
        if report.failsRun { throw ExitCode.failure }
    }
}
