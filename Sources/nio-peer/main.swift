import CommonFormats
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// The peer server of `Scripts/http_floor.py --peer`, beside the reference backend's server.
///
/// `nio-peer [PORT]`: listens on 127.0.0.1:PORT (0, the default, picks a free port), prints
/// `listening on http://127.0.0.1:PORT`, and answers every request, keep-alive, with 200 and a
/// fixed 512-byte JSON body, with `Content-Type`, `Content-Length` and `Date` as the reference
/// backend sends them. NIO's HTTP/1.1 codec (`configureHTTPServerPipeline` with its defaults but
/// pipelining assistance) and one handler; no routing, no request log, no task per request.
final class FixedAnswer: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    static let body: String = {
        let prefix = "{\"answer\":\""
        return prefix + String(repeating: "x", count: 512 - prefix.utf8.count - 2) + "\"}"
    }()

    private var dateSecond: Int64 = -1
    private var dateText = ""

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .end = unwrapInboundIn(data) else { return }
        var headers = NIOHTTP1.HTTPHeaders()
        headers.add(name: "Content-Type", value: "application/json; charset=utf-8")
        headers.add(name: "Content-Length", value: String(Self.body.utf8.count))
        headers.add(name: "Date", value: date())
        context.write(
            wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .ok, headers: headers))), promise: nil)
        context.write(
            wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(string: Self.body)))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
    }

    /// The IMF-fixdate of the current second (`CivilTime.httpDate`, as the reference backend's
    /// server writes it), made once per second.
    private func date() -> String {
        let now = Int64(Date().timeIntervalSince1970)
        if now != dateSecond {
            dateSecond = now
            dateText = CivilTime.httpDate(milliseconds: now * 1000)
        }
        return dateText
    }
}

let arguments = CommandLine.arguments.dropFirst()
guard arguments.count <= 1, let port = Int(arguments.first ?? "0"), (0...65_535).contains(port) else {
    FileHandle.standardError.write(Data("usage: nio-peer [PORT], a port from 0 to 65535\n".utf8))
    exit(2)
}
let channel = try ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
    .serverChannelOption(.backlog, value: 256)
    .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
    .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
    .childChannelInitializer { child in
        child.eventLoop.makeCompletedFuture {
            try child.pipeline.syncOperations.configureHTTPServerPipeline(withPipeliningAssistance: false)
            try child.pipeline.syncOperations.addHandler(FixedAnswer())
        }
    }
    .bind(host: "127.0.0.1", port: port).wait()
FileHandle.standardOutput.write(Data("listening on http://127.0.0.1:\(channel.localAddress?.port ?? port)\n".utf8))
try channel.closeFuture.wait()
