import Foundation
import TestSupport
import Testing

@testable import WorkbenchCLI

/// `serve --log-level`: the level is read in process (names only, a usage error otherwise), and the
/// built executable logs one line per request to standard error, its standard output unchanged.
@Suite struct ServeLoggingTests {
    static let names = ["trace", "debug", "info", "notice", "warning", "error", "critical"]

    @Test func levelsAreRead() throws {
        #expect(try ServeCommand.parse([]).logging.given == nil)
        for name in Self.names {
            #expect(try ServeCommand.parse(["--log-level", name]).logging.given?.rawValue == name)
        }
        #expect(try ServeCommand.parse(["--log-level", "Warning"]).logging.given?.rawValue == "warning")
        #expect(try CassetteServeCommand.parse(["x.json", "--log-level=debug"]).logging.given?.rawValue == "debug")
    }

    @Test(
        "anything but a level name is a usage error naming the levels",
        arguments: ["verbose", "", "warn", "5", "-1", "info,debug"])
    func invalidLevels(text: String) {
        do {
            _ = try ServeCommand.parse(["--log-level", text])
            Issue.record("--log-level \(text) was accepted")
        } catch {
            #expect(ServeCommand.exitCode(for: error) == .validationFailure)
            let message = ServeCommand.fullMessage(for: error)
            #expect(
                message.contains(
                    "'--log-level <log-level>': must be one of trace, debug, info, notice, warning, error, critical"),
                "\(message)")
        }
    }

    @Test func theBenchmarkServesNothingToLog() {
        do {
            _ = try BenchBackendCommand.parse(["--log-level", "info"])
            Issue.record("bench backend --log-level was accepted")
        } catch {
            #expect(BenchBackendCommand.fullMessage(for: error).contains("Unknown option '--log-level'"))
        }
    }

    @Test(
        "the executable refuses a bad level with status 2",
        arguments: [
            (
                ["serve", "--log-level", "verbose"],
                "The value 'verbose' is invalid for '--log-level <log-level>': must be one of trace, debug"
            ),
            (["serve", "--log-level"], "Missing value for '--log-level <log-level>'"),
            (["serve", "--bench", "--log-level", "debug"], "Unknown option '--log-level'"),
        ])
    func executableRefusesBadLevels(arguments: [String], message: String) throws {
        let result = try WorkbenchProcess.run(arguments)
        #expect(result.exited && result.status == 2, "\(result)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }

    /// One request to `serve` (the reference backend, or a cassette) gives one log line on
    /// standard error with the method, path, status, duration and bytes; above `info`, none.
    @Test(
        "one request, one log line on standard error",
        arguments: [
            (["serve", "--port", "0", "--seed", "logs"], true, Int32(0)),
            (["serve", "--port", "0", "--seed", "logs", "--log-level", "warning"], false, 0),
            (["cassette", "serve", "Recordings/authenticate.json", "--port", "0", "--log-level", "debug"], true, 1),
        ])
    func oneRequestOneLine(arguments: [String], logged: Bool, status: Int32) throws {
        let serving = try ServingProcess(arguments)
        let port = serving.waitForOutput(within: 120) { line -> Int? in
            guard line.hasPrefix("reference backend listening on ") || line.hasPrefix("serving cassette "),
                let origin = line.range(of: "http://127.0.0.1:")
            else { return nil }
            return Int(line[origin.upperBound...])
        }
        guard let port else {
            Issue.record("no listening address: \(serving.interrupt())")
            return
        }
        let response: String
        do {
            response = try ServingProcess.get(port: port, "/rps/clientSettings?probe=1")
        } catch {
            Issue.record("\(error); \(serving.interrupt())")
            return
        }
        let run = serving.interrupt()
        #expect(run.exited && run.status == status, "\(run)")
        #expect(response.hasPrefix("HTTP/1.1 200"), "\(response)")
        let length = response.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
            .flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) }
        let lines = run.stderr.split(separator: "\n").filter { $0.contains("/rps/clientSettings") }
        #expect(!run.stdout.contains("GET /rps/clientSettings 200"), "\(run.stdout)")
        guard logged else {
            #expect(lines.isEmpty, "\(run.stderr)")
            return
        }
        #expect(lines.count == 1, "\(run.stderr)")
        let line = try #require(lines.first)
        #expect(
            line.contains(" info ") && line.contains("GET /rps/clientSettings 200 ")
                && line.hasSuffix(" ms \(length ?? -1) bytes"),
            "\(line)")
        #expect(!line.contains("probe"), "the query is not logged: \(line)")
    }
}
