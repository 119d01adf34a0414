import SDKSeams

/// How the connector reports its results and notes in the shared event model (`ClientEvent`).
extension ClientEvent.Result {
    /// A call that asked the service (`registerDevice`, `applicationLogin`, `doLogin`): the status
    /// is the `ServiceResult` flag names (`Success|ServiceSuccess`) with the result message; the
    /// outputs start with `serviceResult` (the number) and `resCode`, then the call's own.
    static func service(
        _ name: String, _ result: ServiceResult, resCode: Int, resMessage: String,
        outputs: [NamedValue]
    ) -> Self {
        Self(
            name: name, status: .init(code: result.description, message: resMessage),
            outputs: [NamedValue("serviceResult", String(result.rawValue)), NamedValue("resCode", String(resCode))]
                + outputs)
    }

    /// A call that stays on the device (`excludeLoginGroup`, the releases): status `OK` with no message.
    static func local(_ name: String, outputs: [NamedValue]) -> Self {
        Self(name: name, status: .init(code: "OK", message: ""), outputs: outputs)
    }
}

extension ClientEvent.Note {
    /// `loginResponse`: a "MVIDLoginResponseReady" result was delivered on `responses`; its values
    /// are `serviceResult` (the number), `hasAccess` (1 or 0), `serviceResCode`, `serviceResMsg`
    /// and `accessIdentifier`.
    static func loginResponse(_ response: LoginResponse) -> Self {
        Self(
            name: "loginResponse",
            values: [
                NamedValue("serviceResult", String(response.serviceResult.rawValue)),
                NamedValue("hasAccess", response.hasAccess ? "1" : "0"),
                NamedValue("serviceResCode", String(response.serviceResCode)),
                NamedValue("serviceResMsg", response.serviceResMsg),
                NamedValue("accessIdentifier", response.accessIdentifier),
            ])
    }

    /// `storageFailure`: the device state could not be loaded or saved (the call went on with the
    /// state in memory); its values are the store's `path` and the `reason`.
    static func storageFailure(_ error: DeviceStorageError) -> Self {
        Self(name: "storageFailure", values: [NamedValue("path", error.path), NamedValue("reason", error.reason)])
    }
}
