//! Registers a user with the reference backend and authenticates it, over libcurl, on loopback.
import CurlTransport
import MPinSDK
import ReferenceBackend

// The reference backend in this process, on 127.0.0.1 and a port the system picks (port 0).
let backend = try await ReferenceBackend.start(BackendConfiguration(host: "127.0.0.1", port: 0))

// The client: libcurl for HTTP, users kept in memory, system randomness and clock.
let client = MPinClient(transport: CurlTransport(), storage: MemoryStorage())
try await client.initialize(configuration: ["backend": backend.baseURL])

// Registration: the backend activates new users at once (ActivationMode.auto).
let user = try await client.makeNewUser(id: "alice@example.com", deviceName: "Laptop")
try await client.startRegistration(user)  // ACTIVATED
try await client.confirmRegistration(user)  // both client-secret shares
try await client.finishRegistration(user, pin: "1234")  // the PIN is taken out: the token
print("registered:", user.id, user.state)

// Authentication: time permits, then the two passes and the PIN check on the backend.
try await client.startAuthentication(user)
let resultData = try await client.finishAuthentication(user, pin: "1234")
print("authenticated:", resultData)  // the user data the RPA answers with

// A wrong PIN is an MPinError with a Milagro status code.
do throws(MPinError) {
    try await client.startAuthentication(user)
    _ = try await client.finishAuthentication(user, pin: "9999")
} catch {
    print("wrong PIN:", error.code, "-", user.state)
}

await backend.stop()
