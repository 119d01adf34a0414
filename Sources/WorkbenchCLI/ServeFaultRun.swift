import ClientConformance
import HTTPServing
import Logging
import ReferenceBackend

/// `serve --fault CASE-ID`: the backend of one client case (its faults, activation mode and
/// limits over `serve`'s profile and flavour) until Ctrl-C, for reproducing it by hand.
struct ServeFaultRun {
    let caseID: String
    let configuration: BackendConfiguration
    let clock: any BackendClock
    let logger: Logger

    func run() async throws {
        let control = ServerTaskControl(announce: Console.out)
        let (caseID, configuration, clock, logger) = (self.caseID, self.configuration, self.clock, self.logger)
        await control.run {
            let server = try await FaultServer.start(
                caseID: caseID, profile: ClientProfile(flavour: configuration.flavour, profile: configuration.profile),
                base: configuration, clock: clock, logger: logger
            ) { message in
                switch message.kind {
                case .link: Console.line("activation link for \(message.userID): \(message.value)")
                case .code: Console.line("activation code for \(message.userID): \(message.value)")
                }
            }
            Console.line(ServeCommand.banner(server.backend))
            for line in server.banner { Console.line(line) }
            await withTaskCancellationHandler {
                await server.wait()
            } onCancel: {
                Task { await server.stop() }
            }
        }
        if let problem = control.error as? FaultServer.Problem { throw CommandFailure("--fault: \(problem)") }
        if let error = control.error { throw CommandFailure("\(error)") }
    }
}
