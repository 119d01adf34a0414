/// `Call.read` answers 413 from the head when the declared `Content-Length` is over the
/// configured limit, so the backend's pipeline sends no `100 Continue` for such a request
/// (RFC 9110 §10.1.1).
extension BackendResponder: RefusesLargeBodiesFromTheHead {
    var maximumBodySize: Int { core.configuration.maximumBodySize }
}
