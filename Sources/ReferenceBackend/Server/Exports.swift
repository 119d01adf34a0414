// The servers' plumbing, whose public types this module's API names too (the configuration's
// `BodyDeadline`, the `ServerStartError` that `start` throws); its home is HTTPServing.
@_exported import HTTPServing
// The protocol's flavours, activation modes and profiles are part of this module's API (its
// configuration names them); they live in MilagroProtocol, their one home (docs/protocol.md §2, §13).
@_exported import MilagroProtocol
