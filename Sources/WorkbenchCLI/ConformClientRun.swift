import ArgumentParser
import ClientConformance
import Conformance
import FileAccess

/// `conform --client …` run: the client suite with the command's selection and reports, the
/// terminal summary (or `--json`), exit 1 when a MUST case failed and 2 when the client could not
/// be run (the reason named).
struct ConformClientRun {
    let command: ConformCommand

    func run() async throws {
        let mode = command.clientMode
        var options = ClientSuite.Options()
        options.profile = mode.profile
        options.pattern = command.cases.flatMap(CasePattern.init)
        options.rate = command.rate
        options.runTimeLimit = mode.runTimeout
        options.redactedFields = command.redactedFields
        let suite = ClientSuite(options: options, driver: mode.driver)
        if suite.selected.isEmpty { throw CommandFailure("--cases '\(command.cases ?? "")' selects no client case") }
        if command.list {
            for item in suite.selected { Console.out("\(item.level.rawValue)\t\(item.id)\t\(item.title)\n") }
            return
        }
        var report: ConformanceReport
        do {
            report = try await suite.run { result in Console.error("\(result.verdict.kind.rawValue) \(result.id)\n") }
        } catch {
            throw CommandFailure("the client suite could not start: \(error)")
        }
        do {
            if let out = command.out { report = try report.writingCassettes(to: out) }
            if let junit = command.junit { try AtomicFile.write(Array(report.junitXML.utf8), to: junit) }
            if let html = command.html { try AtomicFile.write(Array(report.html.utf8), to: html) }
        } catch {
            throw CommandFailure("\(error)")
        }
        Console.out(command.json ? report.jsonText + "\n" : report.terminalSummary(verbose: command.verbose))
        if let reason = report.couldNotGrade {
            throw CommandFailure("could not grade the client \(mode.driver.name): \(reason)")
        }
        if report.failsRun { throw ExitCode.failure }
    }
}
