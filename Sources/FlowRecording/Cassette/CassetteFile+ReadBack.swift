extension CassetteFile {
    /// `exchange` read back through the cassette reader (`decode`) in a cassette of its own with
    /// `header`'s metadata: why the reader refuses it (nil when it takes it: more than
    /// `CassetteLimits.maximumHeaders` fields, a field name that is not a token, a control character
    /// in a value, ...), and the bytes its event takes in the file (the cassette's less `headerBytes`,
    /// those of the header alone, computed when not given).
    ///
    /// The one check of what may be recorded: the recording proxy and `conform` run every exchange
    /// through it before it takes its place, so that neither writes a cassette its reader refuses.
    package static func readBack(
        _ exchange: CassetteEvent.HTTPExchange, header: Cassette,
        headerBytes: Int? = nil
    ) -> (refusal: String?, size: Int) {
        var probe = header
        probe.events = [CassetteEvent(actor: .sdk, step: nil, .http(exchange))]
        let bytes = probe.canonicalBytes
        var empty = header
        empty.events = []
        let size = max(bytes.count - (headerBytes ?? empty.canonicalBytes.count), 0)
        do {
            _ = try decode(bytes)
            return (nil, size)
        } catch {
            return ((error.field.map { "field \($0): " } ?? "") + error.message, size)
        }
    }
}
