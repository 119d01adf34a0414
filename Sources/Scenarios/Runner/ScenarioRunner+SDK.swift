import FlowRecording
import MPinSDK
import MilagroProtocol
import MilagroRecording

extension ScenarioRunner {
    /// Calls the SDK method of an `sdk` step; the status, user state and outputs come from the
    /// observer's record of the call. The switch names every `StepAction.SDK`: an action without a
    /// call here does not compile.
    func sdkStep(
        _ step: ScriptStep, _ action: StepAction.SDK, _ arguments: [String: String], client: MPinClient,
        observer: CassetteObserver,
        state: inout RunState
    ) async throws(ScenarioFailure) -> StepOutcome {
        func text(_ name: String) -> String { arguments[name] ?? "" }
        func optional(_ name: String) -> String? { arguments[name] }
        func user() throws(ScenarioFailure) -> User {
            if let id = arguments["user"] {
                guard let user = state.users[id] else {
                    throw failure(step, "no user \"\(id)\" in this run; make it first with makeNewUser")
                }
                return user
            }
            guard let user = state.lastUser else { throw failure(step, "no user yet; make one first with makeNewUser") }
            return user
        }
        var target: User?
        if ScriptAction(.sdk(action)).allowed.contains("user") { target = try user() }
        var subject: User?
        var thrown: MPinError?
        // What a call that answers with a value returned, when the observer's record of the call
        // lacks it (a refused logout is recorded with its status only).
        var returned: (name: String, value: String)?
        _ = observer.takeResult()
        do throws(MPinError) {
            switch action {
            case .initialize:
                var configuration: [String: String] = [:]
                if let backend = optional("backend") { configuration["backend"] = backend }
                if let prefix = optional("rpsPrefix") { configuration["rpsPrefix"] = prefix }
                try await client.initialize(configuration: configuration)
            case .destroy: await client.destroy()
            case .setBackend:
                try await client.setBackend(
                    optional("url") ?? environment.backendURL,
                    rpsPrefix: optional("rpsPrefix") ?? Endpoint.defaultRPSPrefix)
            case .testBackend:
                try await client.testBackend(
                    optional("url") ?? environment.backendURL,
                    rpsPrefix: optional("rpsPrefix") ?? Endpoint.defaultRPSPrefix)
            case .setClientID: try await client.setClientID(text("clientID"))
            case .addTrustedDomain: try await client.addTrustedDomain(text("domain"))
            case .clearTrustedDomains: try await client.clearTrustedDomains()
            case .makeNewUser:
                let made = try await client.makeNewUser(id: text("id"), deviceName: text("deviceName"))
                state.users[made.id] = made
                state.lastUser = made
                subject = made
            case .deleteUser:
                subject = target
                try await client.deleteUser(subject!)
            case .listUsers:
                if let backend = optional("backend") {
                    _ = try await client.listUsers(backend: backend)
                } else {
                    _ = try await client.listUsers()
                }
            case .listAllUsers: _ = try await client.listAllUsers()
            case .listBackends: _ = try await client.listBackends()
            case .startRegistration:
                subject = target
                try await client.startRegistration(
                    subject!, activateCode: text("activateCode"), userData: text("userData"),
                    accessCode: text("accessCode"), pushToken: text("pushToken"))
            case .restartRegistration:
                subject = target
                try await client.restartRegistration(subject!, userData: text("userData"))
            case .confirmRegistration:
                subject = target
                try await client.confirmRegistration(subject!, pushMessageIdentifier: text("pushMessageIdentifier"))
            case .finishRegistration:
                subject = target
                try await client.finishRegistration(subject!, pin: text("pin"), secondFactor: optional("secondFactor"))
            case .startAuthentication:
                subject = target
                try await client.startAuthentication(subject!, accessCode: text("accessCode"))
            case .checkAccessNumber: try await client.checkAccessNumber(text("accessNumber"))
            case .finishAuthentication:
                subject = target
                try await client.finishAuthentication(
                    subject!, pin: text("pin"), secondFactor: optional("secondFactor"))
            case .finishAuthenticationOTP:
                subject = target
                _ = try await client.finishAuthenticationOTP(
                    subject!, pin: text("pin"), secondFactor: optional("secondFactor"))
            case .finishAuthenticationAN:
                subject = target
                try await client.finishAuthenticationAN(
                    subject!, pin: text("pin"), accessNumber: text("accessNumber"),
                    secondFactor: optional("secondFactor"))
            case .finishAuthenticationAC:
                subject = target
                try await client.finishAuthentication(
                    subject!, pin: text("pin"), secondFactor: optional("secondFactor"),
                    accessCode: text("accessCode"))
            case .finishAuthenticationAuthz:
                subject = target
                _ = try await client.finishAuthenticationAuthz(
                    subject!, pin: text("pin"), secondFactor: optional("secondFactor"),
                    accessCode: text("accessCode"))
            case .canLogout:
                subject = target
                returned = ("canLogout", String(await client.canLogout(subject!)))
            case .logout:
                subject = target
                returned = ("loggedOut", String(await client.logout(subject!)))
            case .getServiceDetails: _ = try await client.getServiceDetails(url: text("url"))
            case .getSessionDetails: _ = try await client.getSessionDetails(accessCode: text("accessCode"))
            case .abortSession: try await client.abortSession(accessCode: text("accessCode"))
            case .getAccessCode: _ = try await client.getAccessCode(authorizationURL: text("authorizationURL"))
            case .clientParameter: _ = await client.clientParameter(text("name"))
            }
        } catch {
            thrown = error
        }
        let result = observer.takeResult()
        let status = result?.status ?? ClientEvent.Status(thrown?.status ?? .ok)
        var outputs = (result?.outputs ?? []).map { (name: $0.name, value: $0.value) }
        if let returned, !outputs.contains(where: { $0.name == returned.name }) { outputs.append(returned) }
        if let subject { outputs.append(("mpinId", subject.mpinID)) }
        return StepOutcome(
            step: step, status: status.code, message: status.message,
            userState: (subject ?? (arguments["user"] == nil ? state.lastUser : nil))?.state.rawValue,
            outputs: outputs)
    }
}
