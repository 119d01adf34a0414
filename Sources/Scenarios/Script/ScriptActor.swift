/// Who acts in a script step (the step's key): the SDK, the browser and the operator over HTTP,
/// the frozen clock of an embedded recording, or the DeviceSecurity connector.
public enum ScriptActor: String, Sendable, CaseIterable, Hashable {
    case sdk, browser, admin, clock, device

    /// The status a step of this actor has when it did what was asked, unless its `expect` names
    /// another: `OK` for the SDK, the clock and the device, HTTP `200` for the browser and the operator.
    public var successStatus: String {
        switch self {
        case .sdk, .clock, .device: "OK"
        case .browser, .admin: "200"
        }
    }
}
