// So are the crypto core's value types that the configuration names (PINMapping, CurveID) and the
// access-number checksum (AccessNumber).
@_exported import MPinCrypto
// So is the protocol's knowledge the API names: the status codes and their HTTP mapping
// (StatusCode, RequestContext, HTTPStatusMapping, docs/protocol.md §4) and the flavours.
@_exported import MilagroProtocol
// The seams are part of this module's API: users of MPinSDK see HTTPTransport, RandomSource, ...
@_exported import SDKSeams
