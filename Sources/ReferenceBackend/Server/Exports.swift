// The protocol's flavours, activation modes and profiles are part of this module's API (its
// configuration names them); they live in MilagroProtocol, their one home (PROTOCOL §2, §13).
@_exported import MilagroProtocol
