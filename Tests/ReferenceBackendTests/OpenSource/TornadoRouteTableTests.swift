import Hummingbird
import MilagroProtocol
import Testing

@testable import ReferenceBackend

/// The rules of the open-source server's routing (docs/backend.md, "The open-source server's
/// route table"), each checked on every route of `TornadoRouteTable` with requests generated from
/// the route (its path, its methods, its body rule), against the `milagro-oss` front in the
/// process: not against recorded answers. The statuses are Tornado 4.1's: 405 for a method outside
/// `SUPPORTED_METHODS` or one the handler does not define, 404 where no route matches, and the
/// demo proxy's 500 for a body on GET or OPTIONS.
@Suite struct TornadoRouteTableTests {
    static func core() -> BackendCore {
        var configuration = BackendConfiguration(flavour: .milagro, activation: .auto, seed: "routes")
        configuration.profile = .milagroOSS
        return BackendCore(configuration: configuration, clock: SystemBackendClock(), mail: { _ in })
    }

    static func send(_ core: BackendCore, _ method: String, _ path: String, body: String = "") async
        -> (status: Int, text: String)
    {
        let head = HTTPRequest(
            method: HTTPRequest.Method(method)!, scheme: "http", authority: "127.0.0.1", path: path)
        guard let answer = await core.openSourceAnswer(to: head, body: Array(body.utf8)) else { return (-1, "") }
        return (answer.head.status.code, String(decoding: answer.body, as: UTF8.self))
    }

    /// A path a route matches: its literal part, and a group of its kind.
    static func path(_ route: TornadoRoute) -> String {
        switch route.group {
        case .none: route.prefix
        case .hex: route.prefix + String(repeating: "ab", count: 8)
        case .optionalSlashHex: route.prefix
        case .anything: route.prefix + "x"
        }
    }

    static let methods = Array(TornadoRoute.tornadoMethods).sorted() + ["FOO"]

    /// The bodies a method is sent with: POST and PUT carry `{}`, the others none.
    static func body(_ method: String) -> String { ["POST", "PUT"].contains(method) ? "{}" : "" }

    @Test func theTablesMatchAsTornadoDoes() {
        // Anchored at both ends, case sensitive, a hex group of one digit or more.
        let signature = TornadoRouteTable.rps.first { $0.handler == .rpsSignature }!
        #expect(signature.match("/rps/signature/aB09") == "aB09")
        #expect(signature.match("/rps/signature/") == nil && signature.match("/rps/signature/ab/") == nil)
        #expect(signature.match("/rps/signature/xyz") == nil && signature.match("/RPS/signature/ab") == nil)
        let register = TornadoRouteTable.rps.first { $0.handler == .rpsRegister }!
        #expect(register.match("/rps/user") == "" && register.match("/rps/user/") == "/")
        #expect(register.match("/rps/userab") == "ab" && register.match("/rps/user/ab/") == nil)
        // The first route that matches wins: /protected/x is the page route, /protected the other.
        #expect(TornadoRouteTable.route(.demo, path: "/protected/x")?.route.handler == .demoProtectedPage)
        #expect(TornadoRouteTable.route(.demo, path: "/protected")?.route.handler == .demoProtected)
        #expect(TornadoRouteTable.route(.rps, path: "/anything/else")?.route.handler == .rpsDefault)
        // The demo's proxy strips every `/` at both ends of the URI, the query included.
        #expect(TornadoRouteTable.proxiedTarget("/rps/pass1//") == "/rps/pass1")
        #expect(TornadoRouteTable.proxiedTarget("/rps/pass1/?x=1") == "/rps/pass1/?x=1")
        #expect(TornadoRouteTable.proxiedTarget("/rps/pass1?x=/") == "/rps/pass1?x=")
    }

    /// Every demo route (but the proxy) answers 405 to a method its class does not support or
    /// its handler does not define, and to none other.
    @Test func demoRoutesAnswerTheirMethods() async {
        let core = Self.core()
        for route in TornadoRouteTable.demo where route.handler != .demoProxy && route.handler != .demoLogoutWait {
            for method in Self.methods {
                let answer = await Self.send(core, method, Self.path(route), body: Self.body(method))
                let allowed = route.supportedMethods.contains(method) && route.defines(method)
                #expect(
                    (answer.status == 405) != allowed,
                    "\(method) \(Self.path(route)) answered \(answer.status) \(answer.text.prefix(80))")
            }
        }
    }

    /// A demo path with a `/` added or doubled, or in upper case, is the route's only where the
    /// table matches it; else Tornado's 404.
    @Test func demoPathFormsAreOtherPaths() async {
        let core = Self.core()
        for route in TornadoRouteTable.demo where route.group == .none && route.prefix != "/" {
            let method = route.methods.sorted().first ?? "GET"
            for form in [route.prefix + "/", "/" + route.prefix, route.prefix.uppercased()] {
                let answer = await Self.send(core, method, form, body: Self.body(method))
                let routed = TornadoRouteTable.route(.demo, path: form) != nil
                #expect(
                    (answer.status == 404 && answer.text.contains("404: Not Found")) != routed,
                    "\(method) \(form) answered \(answer.status)")
            }
        }
    }

    /// Every RPS route a client reaches (under `/rps/`), through the demo's proxy: its method is
    /// served (not 404 or 405) with or without a trailing `/`; GET, POST and PUT its handler does
    /// not define are the RPS's 405; OPTIONS is the RPS's `options request`; HEAD, DELETE and PATCH
    /// are the demo's 405; a body on GET or OPTIONS is the proxy's empty 500; in upper case the
    /// path has no route (404).
    @Test func rpsRoutesThroughTheProxy() async {
        let core = Self.core()
        for route in TornadoRouteTable.rps where route.prefix.hasPrefix("/rps/") {
            let path = Self.path(route)
            for method in route.methods.sorted() {
                for form in [path, path + "/"] {
                    let answer = await Self.send(core, method, form, body: Self.body(method))
                    #expect(![404, 405].contains(answer.status), "\(method) \(form) answered \(answer.status)")
                }
            }
            for method in ["GET", "POST", "PUT"] where !route.defines(method) {
                let answer = await Self.send(core, method, path, body: Self.body(method))
                #expect(
                    answer.status == 405 && answer.text.contains("\"version\": \"0.3\""),
                    "\(method) \(path) answered \(answer.status) \(answer.text.prefix(80))")
            }
            let options = await Self.send(core, "OPTIONS", path)
            #expect(options.status == 200 && options.text.contains("options request"), "OPTIONS \(path)")
            for method in ["HEAD", "DELETE", "PATCH"] {
                let answer = await Self.send(core, method, path)
                #expect(answer.status == 405 && !answer.text.contains("0.3"), "\(method) \(path)")
            }
            for method in ["GET", "OPTIONS"] {
                let answer = await Self.send(core, method, path, body: "{\"probe\": 1}")
                #expect(answer.status == 500 && answer.text.isEmpty, "\(method) \(path) with a body: \(answer.status)")
            }
            let upper = await Self.send(core, route.methods.sorted().first ?? "GET", path.uppercased())
            #expect(upper.status == 404, "\(path.uppercased()) answered \(upper.status)")
        }
    }

    /// The RPS's private routes are on its own port only: from the demo's port they are paths
    /// without a route (404).
    @Test func privateRoutesAreNotOnTheDemosPort() async {
        let core = Self.core()
        for route in TornadoRouteTable.rps where !route.prefix.hasPrefix("/rps/") && route.group != .anything {
            let path = Self.path(route)
            let method = route.methods.sorted().first ?? "GET"
            let answer = await Self.send(core, method, path, body: Self.body(method))
            let demoRoute = TornadoRouteTable.route(.demo, path: path) != nil
            #expect(demoRoute || answer.status == 404, "\(method) \(path) answered \(answer.status)")
        }
    }

    /// Every D-TA route (under `/dta2/`): its GET served; OPTIONS `options request` on an exact
    /// route and 500 on the catch-all (whose path argument `options` does not take); HEAD and a
    /// method the handler does not define 405, with the reason in capitals.
    @Test func dtaRoutes() async {
        let core = Self.core()
        for route in TornadoRouteTable.dta {
            let path = TornadoRouteTable.dta2Mount + Self.path(route)
            let get = await Self.send(core, "GET", path)
            #expect(
                ![405].contains(get.status) && (route.group == .anything || get.status != 404),
                "GET \(path) answered \(get.status)")
            let options = await Self.send(core, "OPTIONS", path)
            #expect(options.status == (route.group == .none ? 200 : 500), "OPTIONS \(path): \(options.status)")
            for method in Self.methods where !route.defines(method) {
                let answer = await Self.send(core, method, path, body: Self.body(method))
                #expect(
                    answer.status == 405 && (method == "HEAD" || answer.text.contains("METHOD NOT ALLOWED")),
                    "\(method) \(path) answered \(answer.status) \(answer.text.prefix(80))")
            }
        }
    }

    /// The operator endpoints are not on the open-source server's paths unless a prefix is given.
    @Test func operatorEndpointsAreOff() async {
        let core = Self.core()
        let answer = await Self.send(core, "GET", "/admin/counts")
        #expect(answer.status == 404 && answer.text.contains("404: Not Found"))
        var configuration = core.configuration
        configuration.operatorPrefix = "/workbench"
        let prefixed = BackendCore(configuration: configuration, clock: SystemBackendClock(), mail: { _ in })
        #expect(await Self.send(prefixed, "GET", "/workbench/admin/counts").status == -1)  // left to the workbench
        #expect(await Self.send(prefixed, "GET", "/admin/counts").status == 404)
    }
}
